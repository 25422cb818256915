"""Actions as small integers, with the notation of docs/rules.md.

Encoding (``N`` = card id 0..43, see :mod:`scoundrel_core.cards`)::

    action = 2 * N       resolve card N: equip a weapon, drink a potion,
                         or fight a monster barehanded      text "7D", "5H", "KS/f"
    action = 2 * N + 1   fight monster N with the weapon    text "KS/w"
    action = 88          flee the room                      text "flee"

so the legal actions of a state sort by card id, with flee last.
"""

from __future__ import annotations

from numbers import Integral
from typing import Final

from .cards import Card, card, parse_card
from .errors import CardError, IllegalActionError, excerpt

__all__ = ["FLEE", "NUM_ACTIONS", "Action", "as_action", "fight", "parse_action_text", "resolve"]

FLEE_ID: Final = 88
NUM_ACTIONS: Final = 89
"""Size of the action space: two actions per card id (resolve, fight with the weapon) and flee."""


class Action(int):
    """An action: an ``int`` in 0..88 whose ``str`` is its notation."""

    __slots__ = ()

    def __new__(cls, value: int) -> Action:
        if isinstance(value, bool) or not isinstance(value, (int, Integral)):
            raise IllegalActionError(f"action {value!r} is not an action number")
        if not 0 <= int(value) < NUM_ACTIONS:
            raise IllegalActionError(f"action {value!r} is not in 0..{NUM_ACTIONS - 1}")
        return super().__new__(cls, value)

    @property
    def is_flee(self) -> bool:
        return int(self) == FLEE_ID

    @property
    def card(self) -> Card | None:
        """The card the action resolves, None for flee."""
        return None if self.is_flee else card(int(self) >> 1)

    @property
    def with_weapon(self) -> bool:
        return not self.is_flee and bool(int(self) & 1)

    def __str__(self) -> str:
        if self.is_flee:
            return "flee"
        c = card(int(self) >> 1)
        if c.is_monster:
            return f"{c}/{'w' if int(self) & 1 else 'f'}"
        return str(c)

    def __repr__(self) -> str:
        return f"Action({self})"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Action, (int(self),))


FLEE: Final = Action(FLEE_ID)
"""The flee action (number 88)."""

ACTIONS: Final[tuple[Action, ...]] = tuple(Action(i) for i in range(NUM_ACTIONS))
"""Every action, indexed by its integer (shared instances, no allocation per move)."""


def resolve(c: Card) -> Action:
    """Equip, drink, or fight barehanded."""
    return Action(2 * c.id)


def fight(c: Card) -> Action:
    """Fight monster ``c`` with the weapon."""
    if not c.is_monster:
        raise IllegalActionError(f"action '{c}/w': {c} is not a monster")
    return Action(2 * c.id + 1)


def parse_action_text(text: str) -> Action:
    """Read an action without a state (no legality check): ``flee``, ``7D``, ``KS/w``, ``KS/f``."""
    if isinstance(text, Action):
        return text
    if not isinstance(text, str):
        raise IllegalActionError(f"action {excerpt(text)} is not text")
    t = text.strip()
    if t.lower() == "flee":
        return FLEE
    card_text, slash, style = t.partition("/")
    try:
        c = parse_card(card_text)
    except CardError as err:
        raise IllegalActionError(f"bad action {excerpt(text)}: {err}") from None
    style = style.strip().lower()
    if not slash:
        if c.is_monster:
            raise IllegalActionError(
                f"bad action {excerpt(text)}: say how to fight a monster, '{c}/w' or '{c}/f'"
            )
        return resolve(c)
    if not c.is_monster:
        raise IllegalActionError(f"bad action {excerpt(text)}: only monsters take /w or /f")
    if style == "w":
        return fight(c)
    if style == "f":
        return resolve(c)
    raise IllegalActionError(f"bad action {excerpt(text)}: use /w (weapon) or /f (barehanded)")


def as_action(action: Action | int | str) -> Action:
    """An action given as an Action, its number (0..88) or its text."""
    if isinstance(action, Action):
        return action
    if isinstance(action, str):
        return parse_action_text(action)
    return Action(action)
