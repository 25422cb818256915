"""The words for an action and for the weapon's reach: one source for every front end.

Two lengths of the same facts. The terminal writes whole phrases
(``fight KS with the weapon: -4``, ``weapon 9D (fights up to K)``); the
web's board, where the card is drawn beside the words, writes short ones
(``with weapon: -4``, ``can fight monsters up to K``).

>>> import scoundrel_core as sc
>>> s = sc.new_game(seed=0)
>>> a = sc.parse_action(s, "KS/f")
>>> action_effect(a, s, sc.apply(s, a)), action_label(a, s)
('fight KS barehanded: -13', 'barehanded: -13')
>>> weapon_text(s), weapon_reach_text(s)
('no weapon', 'no weapon: every monster is fought barehanded')
"""

from __future__ import annotations

from typing import Final

import scoundrel_core as sc
from scoundrel_core import Action, State

__all__ = ["action_effect", "action_label", "rank_of", "reach_rank", "weapon_reach_text",
           "weapon_text"]

_FRESH = 14
"""A weapon's reach before its first kill: above an ace (14), every monster."""


def rank_of(value: int) -> str:
    """The rank of a monster of ``value`` (2..14)."""
    return sc.card(value - 2).rank  # the club of that value: ids 0..12 are 2C..AC


def reach_rank(s: State) -> str | None:
    """The rank of the strongest monster the weapon may still fight; None without a
    weapon or with one that can fight nothing more."""
    if not s.weapon_value or s.weapon_reach < 2:
        return None
    return rank_of(min(s.weapon_reach, _FRESH))


def _reach(s: State) -> str:
    """``none`` (no weapon), ``worn`` (it can fight nothing more), ``fresh`` (it can fight
    any monster) or ``up to`` (some monsters)."""
    if not s.weapon_value:
        return "none"
    if s.weapon_reach < 2:
        return "worn"
    return "fresh" if s.weapon_reach >= _FRESH else "up to"


# The two phrasings of the reach; {w}: the weapon, {top}: the rank it fights up to.
_WEAPON_TEXT: Final = {"none": "no weapon", "worn": "weapon {w} (worn out)",
                       "fresh": "weapon {w} (fights up to {top})",
                       "up to": "weapon {w} (fights up to {top})"}
_REACH_TEXT: Final = {"none": "no weapon: every monster is fought barehanded",
                      "worn": "worn out: it can fight no monster",
                      "fresh": "fresh: it can fight any monster",
                      "up to": "can fight monsters up to {top}"}


def weapon_text(s: State) -> str:
    """The weapon and the strongest monster it may still fight (the terminal's words)."""
    return _WEAPON_TEXT[_reach(s)].format(w=s.weapon, top=reach_rank(s))


def weapon_reach_text(s: State) -> str:
    """What the weapon may still fight (the web's words, beside the drawn weapon)."""
    return _REACH_TEXT[_reach(s)].format(top=reach_rank(s))


def _kind(a: Action) -> str:
    """What kind of action ``a`` is: ``flee``, ``drink``, ``equip``, ``weapon`` (a fight
    with the weapon) or ``barehanded``."""
    if a.is_flee:
        return "flee"
    c = a.card
    assert c is not None
    if c.is_potion:
        return "drink"
    if c.is_weapon:
        return "equip"
    return "weapon" if a.with_weapon else "barehanded"


# The two phrasings of an action; {c}: its card, {n}: the health it gave or took (with
# its sign, or words for no change), {hurt}: the health a fight took.
_EFFECT: Final = {"flee": "flee: room goes under the dungeon", "drink": "drink {c}: {n}",
                  "equip": "equip {c}", "weapon": "fight {c} with the weapon: -{hurt}",
                  "barehanded": "fight {c} barehanded: -{hurt}"}
_LABEL: Final = {"flee": "flee: the room goes under the dungeon", "drink": "drink: {n}",
                 "equip": "equip", "weapon": "with weapon: {n}",
                 "barehanded": "barehanded: {n}"}


def _words(table: dict[str, str], a: Action, before: State, after: State, none: str) -> str:
    change = after.health - before.health
    n = none if not change else f"{change:+d}"
    return table[_kind(a)].format(c=a.card, n=n, hurt=-change)


def action_effect(a: Action, before: State, after: State) -> str:
    """What ``a`` did between two states, in words ('fight KS with the weapon: -4')."""
    return _words(_EFFECT, a, before, after, "no effect")


def action_label(a: Action, before: State) -> str:
    """What ``a`` would do, in a few words, with the health it costs or gives (the card
    itself is not named: the web draws it beside the words)."""
    after = before if a.is_flee else sc.apply(before, a)
    return _words(_LABEL, a, before, after, "no effect" if _kind(a) == "drink" else "no damage")
