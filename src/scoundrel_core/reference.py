"""A slow twin of the rules: the rules of docs/rules.md over plain Python lists.

This module is a second implementation of :mod:`scoundrel_core.rules`, written
from ``docs/rules.md`` alone and kept deliberately plain: a mutable dataclass, lists
for the dungeon and the room, one ``if`` per rule. It is not used by the game or
the solver; tests play it side by side with every engine and compare the legal
actions and states at every step (:func:`to_state`). It is public, unlike the
other slow twins (under ``tests/naive``), because a user may call it: it is the
rules as one reads them, to follow a game step by step or to check another
implementation against, move for move.

Actions use the same integers as :mod:`scoundrel_core.actions`::

    2 * card_id        equip a weapon, drink a potion, or fight a monster barehanded
    2 * card_id + 1    fight a monster with the equipped weapon
    88                 flee the room

>>> g = ref_new_game("8D JS 6C 4H 2C")
>>> g = ref_apply(g, 2 * g.room[0].id)        # equip 8D
>>> g = ref_apply(g, 2 * g.room[0].id + 1)    # JS with the weapon: 11 - 8 = 3 damage
>>> g.health, g.last_kill
(17, 11)
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field

from .cards import Card, card, parse_card
from .errors import DeckError, IllegalActionError, VariantError
from .state import State

__all__ = [
    "FLEE_ACTION",
    "RefGame",
    "ref_apply",
    "ref_legal_actions",
    "ref_new_game",
    "to_state",
]

START_HEALTH = 20
MAX_HEALTH = 20
ROOM_CARDS = 4
FLEE_ACTION = 88
"""The flee action's number, the same as :data:`scoundrel_core.FLEE` (restated here on purpose)."""

FLEE_RULES = ("classic", "easy", "hard")
WEAPON_RULES = ("strict", "equal")


# What a card does is decided by its suit alone (docs/rules.md, Deck): black suits
# are monsters, diamonds weapons, hearts potions.


def _is_monster(c: Card) -> bool:
    return c.suit in ("C", "S")


def _is_weapon(c: Card) -> bool:
    return c.suit == "D"


def _is_potion(c: Card) -> bool:
    return c.suit == "H"


@dataclass
class RefGame:
    """A game in progress, every field in plain sight.

    ``last_kill`` is the value of the last monster the equipped weapon slew
    (None while the weapon is unused); ``resolved`` counts the cards resolved in
    the current room; ``fled_last`` says the current room was dealt by a flee
    and none of it is resolved yet, which is what the classic rule looks at.
    """

    dungeon: list[Card]
    room: list[Card]
    health: int = START_HEALTH
    weapon: Card | None = None
    last_kill: int | None = None
    potion_used: bool = False
    resolved: int = 0
    fled_last: bool = False
    over: bool = False
    score: int | None = None
    flee_rule: str = "classic"
    weapon_rule: str = "strict"
    # Every card resolved so far, in order: the discard pile plus the weapon
    # and its kills. Not part of the position; tests use it to check that no
    # card appears or vanishes.
    resolved_cards: list[Card] = field(default_factory=list)


def ref_new_game(
    deck_cards: Iterable[Card | str] | str,
    variant: str = "classic",
    weapon_rule: str = "strict",
) -> RefGame:
    """The opening: 20 health, no weapon, the top four cards (or fewer) face up.

    ``deck_cards`` lists the dungeon top first; any non-empty set of distinct
    cards is accepted, so reduced dungeons work too.
    """
    if variant not in FLEE_RULES:
        raise VariantError(f"unknown variant {variant!r}")
    if weapon_rule not in WEAPON_RULES:
        raise VariantError(f"unknown weapon rule {weapon_rule!r}")
    items = deck_cards.split() if isinstance(deck_cards, str) else list(deck_cards)
    cards = [parse_card(c) for c in items]
    if not cards or len(set(cards)) != len(cards):
        raise DeckError(f"deck {' '.join(map(str, cards))!r} is empty or repeats a card")
    return RefGame(
        dungeon=cards[ROOM_CARDS:],
        room=cards[:ROOM_CARDS],
        flee_rule=variant,
        weapon_rule=weapon_rule,
    )


def _weapon_may_fight(g: RefGame, monster: Card) -> bool:
    # A fresh weapon fights anything; a used one only what is weaker than its
    # last kill (or as strong, under the "equal" rule).
    if g.weapon is None:
        return False
    if g.last_kill is None:
        return True
    if g.weapon_rule == "equal":
        return monster.value <= g.last_kill
    return monster.value < g.last_kill


def _may_flee(g: RefGame) -> bool:
    if g.over or g.flee_rule == "hard":
        return False
    # Only a whole, untouched room can be avoided, and only if there is a
    # dungeon to deal a new room from.
    if len(g.room) != ROOM_CARDS or g.resolved > 0 or not g.dungeon:
        return False
    # Classic: the room dealt right after a flee must be played.
    return g.flee_rule != "classic" or not g.fled_last


def ref_legal_actions(g: RefGame) -> list[int]:
    """The legal actions, ascending; empty once the game is over."""
    if g.over:
        return []
    actions: list[int] = []
    for c in g.room:
        # Resolving is always possible: a monster can always be fought barehanded.
        actions.append(2 * c.id)
        if _is_monster(c) and _weapon_may_fight(g, c):
            actions.append(2 * c.id + 1)
    if _may_flee(g):
        actions.append(FLEE_ACTION)
    return sorted(actions)


def ref_apply(g: RefGame, action: int) -> RefGame:
    """The game after ``action``; ``g`` itself is left as it was."""
    if action not in ref_legal_actions(g):
        raise IllegalActionError(f"illegal action {action!r} in reference game {g!r}")
    new = copy.copy(g)
    new.dungeon = list(g.dungeon)
    new.room = list(g.room)
    new.resolved_cards = list(g.resolved_cards)
    if action == FLEE_ACTION:
        _flee(new)
    else:
        _resolve(new, card(action // 2), with_weapon=action % 2 == 1)
    return new


def _flee(g: RefGame) -> None:
    # The room goes under the dungeon in room order, then a new room is dealt
    # from the top (which may bring back fled cards when the dungeon was short).
    g.dungeon.extend(g.room)
    g.room = g.dungeon[:ROOM_CARDS]
    del g.dungeon[:ROOM_CARDS]
    g.fled_last = True


def _resolve(g: RefGame, c: Card, *, with_weapon: bool) -> None:
    g.room.remove(c)
    g.resolved_cards.append(c)
    g.resolved += 1
    g.fled_last = False

    if _is_potion(c):
        # Only the first potion of a room heals, and never above the maximum.
        if not g.potion_used:
            g.health = min(MAX_HEALTH, g.health + c.value)
        g.potion_used = True
    elif _is_weapon(c):
        # A new weapon replaces the old one even if weaker; its wear starts over.
        g.weapon = c
        g.last_kill = None
    elif with_weapon:
        assert g.weapon is not None
        g.health -= max(0, c.value - g.weapon.value)
        g.last_kill = c.value
    else:
        g.health -= c.value

    if g.health <= 0:
        # Death ends the game at once; the monsters not yet faced count
        # against the score (the one that killed is already out of the room).
        g.over = True
        g.score = g.health - sum(x.value for x in g.dungeon + g.room if _is_monster(x))
        return
    if not g.room and not g.dungeon:
        g.over = True
        # A full-health win on a potion keeps that potion's value as a bonus.
        bonus = c.value if _is_potion(c) and g.health == MAX_HEALTH else 0
        g.score = g.health + bonus
        return
    if g.resolved == ROOM_CARDS - 1 and g.dungeon:
        # Three resolved: the fourth card stays, first in room order, and the
        # room is topped up from the dungeon. A new room means a new potion.
        draw = ROOM_CARDS - len(g.room)
        g.room.extend(g.dungeon[:draw])
        del g.dungeon[:draw]
        g.resolved = 0
        g.potion_used = False


def to_state(g: RefGame) -> State:
    """The packed :class:`State` of the same position, to compare with the fast path."""
    return State.from_parts(
        dungeon=g.dungeon,
        room=g.room,
        health=g.health,
        weapon=g.weapon,
        last_kill=g.last_kill,
        potion_used=g.potion_used,
        resolved=g.resolved,
        fled=g.fled_last,
        variant=g.flee_rule,
        weapon_rule=g.weapon_rule,
        over=g.over,
        score=g.score,
    )
