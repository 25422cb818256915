"""The one check of a position made from outside: could the rules reach it?

Every way a position enters the library from outside (``State.from_parts``,
``State.from_text``, ``parse_state``, ``InfoState.from_text``, records) goes
through :func:`check_position`; ``apply`` builds its states directly and never
pays for it. The invariants follow from the rules (``docs/rules.md``):

- A room is dealt with four cards whenever the dungeon can give them, and is
  refilled after three resolutions while the dungeon has cards. So while the
  dungeon holds cards the room holds ``4 - resolved`` cards, ``resolved``
  being 0, 1 or 2 (a fatal third card ends the game before the refill). Once
  the dungeon is empty the room only shrinks: ``room + resolved <= 4``.
- A running game has health 1..20 and at least one card in the room (the game
  ends when the last card is resolved, or at 0 health).
- A potion drunk in this room means a card of it was resolved (and one of the
  nine potions is out of play); a room dealt by
  a flee is full, untouched, has cards behind it, and the variant allows fleeing.
- Health only ever drops by fighting monsters, and the deck's monsters add up
  to 208: a position at health h has monsters worth at least 20 - h out of
  play, so at most 188 + h still in play. (Hence no lost game scores below
  -188: -13 health after a 10 and a 9 barehanded, then an ace.)
- A weapon is a diamond; its last kill is a monster value 2..14 that the
  weapon slew, so not both monsters of that value can still be in play.
- An ended game ended on a resolved card. Lost: health -13..0 (at least 1
  before a monster of at most 14) and the score is health minus the monsters
  left in the room and dungeon. Won: room and dungeon empty, health 1..20, the
  score is the health, or 20 plus a last potion's value (22..30) at 20 health.
- A position of a full 44-card deal (``partial=False``) also has the dungeon
  sizes of a full deal: 40, 37, ..., 4, 1 while cards are left (each refill
  draws three), then a last room of two cards.

Score and health are packed in fixed bit fields, so these ranges also keep
the packing from wrapping around.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Final

from .cards import DECK_SIZE, Card, Kind
from .errors import PositionError
from .variants import Variant

__all__ = ["LOWEST_HEALTH", "check_position", "whole_number"]

LOWEST_HEALTH: Final = -13
"""The lowest health a game can end on: 1 health, then an ace (14) barehanded."""

_MAX_HEALTH: Final = 20
_ROOM_SIZE: Final = 4
_BEST_WIN: Final = 30
_ALL_MONSTERS: Final = 2 * sum(range(2, 15))  # 208
_POTIONS: Final = 9


def whole_number(name: str, value: object) -> int:
    """``value`` as an int (Python or numpy integers), refusing bools, floats and text."""
    if isinstance(value, bool):
        raise PositionError(f"{name} {value!r} is not an integer")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise PositionError(f"{name} {value!r} is not an integer") from None


def _flag(name: str, value: object) -> bool:
    if isinstance(value, bool) or value in (0, 1):
        return bool(value)
    raise PositionError(f"{name} {value!r} must be True/False (or 0/1)")


def check_position(
    *,
    variant: Variant,
    room: Sequence[Card],
    dungeon: Sequence[Card],
    health: object,
    weapon: Card | None,
    last_kill: object,
    potion_used: object,
    resolved: object,
    fled: object,
    over: object,
    score: object,
    partial: bool = True,
) -> tuple[int, int, int, bool, bool, bool, int | None]:
    """Raise :class:`PositionError` naming the first broken invariant.

    Returns the checked numbers and flags ``(health, last_kill, resolved,
    potion_used, fled, over, score)`` (``last_kill`` 0 when unused) so callers
    pack exactly what was checked. The dungeon order is not read.
    """
    hp = whole_number("health", health)
    res = whole_number("resolved", resolved)
    lk = 0 if last_kill is None else whole_number("last kill", last_kill)
    pu, fl, ov = _flag("potion_used", potion_used), _flag("fled", fled), _flag("over", over)
    if not LOWEST_HEALTH <= hp <= _MAX_HEALTH:
        # The range of the position at hand: 1..20 while it runs (as documented), wider
        # only for a finished game, so one input never meets two different ranges.
        if ov:
            raise PositionError(f"health {hp} out of range {LOWEST_HEALTH}..{_MAX_HEALTH} "
                                "for a finished game")
        raise PositionError(
            f"health {hp} out of range 1..{_MAX_HEALTH} for a running game "
            "(at 0 or below it is over)"
        )
    sc = None if score is None else whole_number("score", score)
    nr, nd = len(room), len(dungeon)

    if weapon is not None and not weapon.is_weapon:
        raise PositionError(f"weapon {weapon} is not a diamond")
    every = [*room, *dungeon, *([weapon] if weapon is not None else [])]
    if len(set(every)) != len(every):
        twice = sorted({str(c) for c in every if every.count(c) > 1})
        raise PositionError(f"card {' '.join(twice)} is in the position twice")
    if nr > _ROOM_SIZE:
        raise PositionError(f"room holds {nr} cards, at most {_ROOM_SIZE}")
    if not 0 <= res <= _ROOM_SIZE:
        raise PositionError(f"resolved {res} out of range 0..4")
    if lk:
        if not 2 <= lk <= 14:
            raise PositionError(f"last kill {lk} is not a monster value 2..14")
        if weapon is None:
            raise PositionError(f"last kill {lk} needs a weapon that slew it")
        alike = [c for c in every if c.kind is Kind.MONSTER and c.value == lk]
        if len(alike) == 2:
            raise PositionError(
                f"last kill {lk}: both monsters of that value ({alike[0]} {alike[1]}) "
                "are still in the room or dungeon"
            )
    if pu and not res:
        raise PositionError("potion=1 needs a resolved card in this room (resolved=0)")
    if pu and sum(c.kind is Kind.POTION for c in every) == _POTIONS:
        raise PositionError("potion=1, yet all 9 potions are still in the room and dungeon")

    if not ov:
        _check_running(variant, hp, nr, nd, res, fl, sc)
    else:
        _check_over(room, dungeon, hp, nr, nd, res, pu, fl, sc)
    in_play = sum(c.value for c in (*room, *dungeon) if c.kind is Kind.MONSTER)
    if in_play > _ALL_MONSTERS - (_MAX_HEALTH - hp):
        raise PositionError(
            f"health {hp} needs monsters worth {_MAX_HEALTH - hp} fought, but monsters worth "
            f"{in_play} of {_ALL_MONSTERS} are still in the room and dungeon"
        )
    if not partial:
        _check_full_deck(nr, nd, res)
    return hp, lk, res, pu, fl, ov, sc


def _check_room_size(nr: int, nd: int, res: int, *, over: bool) -> None:
    if nd and nr + res != _ROOM_SIZE:
        raise PositionError(
            f"room of {nr} cards with resolved={res} while the dungeon has cards: "
            "a room is dealt with 4 cards, so room + resolved must be 4"
        )
    # A third resolution refills the room, unless it ended the game.
    if nd and res > (3 if over else 2):
        raise PositionError(
            f"resolved={res} while the dungeon has cards: a room is refilled after 3 resolutions"
        )
    if nr + res > _ROOM_SIZE:
        raise PositionError(f"room of {nr} cards with resolved={res}: more than 4 cards in a room")


def _check_running(
    variant: Variant, hp: int, nr: int, nd: int, res: int, fl: bool, sc: int | None
) -> None:
    if sc is not None:
        raise PositionError(f"score {sc} for a game that is not over (a score ends the game)")
    if not 1 <= hp <= _MAX_HEALTH:
        raise PositionError(
            f"health {hp} out of range 1..20 for a running game (at 0 or below it is over)"
        )
    if not nr:
        raise PositionError(
            "empty room in a running game: the game ends with its last card (give score=)"
        )
    _check_room_size(nr, nd, res, over=False)
    if fl:
        if not variant.may_flee:
            raise PositionError(f"fled=1 but the {variant.name} variant never allows fleeing")
        if res or nr != _ROOM_SIZE or not nd:
            raise PositionError(
                "fled=1 needs a full, untouched room with cards left in the dungeon"
            )


def _check_over(
    room: Sequence[Card], dungeon: Sequence[Card], hp: int, nr: int, nd: int, res: int,
    pu: bool, fl: bool, sc: int | None,
) -> None:
    if sc is None:
        raise PositionError("an ended game needs its score")
    if not res:
        raise PositionError("an ended game ended on a resolved card, but resolved=0")
    if fl:
        raise PositionError("fled=1 in an ended game: a game ends on a resolved card")
    _check_room_size(nr, nd, res, over=True)
    if hp <= 0:
        left = sum(c.value for c in (*room, *dungeon) if c.kind is Kind.MONSTER)
        if sc != hp - left:
            raise PositionError(
                f"score {sc} of a lost game must be health {hp} minus the monsters left "
                f"({left}): {hp - left}"
            )
        return
    if hp > _MAX_HEALTH:
        raise PositionError(f"health {hp} out of range 1..20 for a won game")
    if nr or nd:
        raise PositionError(
            f"a game won at health {hp} has no cards left, but {nr + nd} are in the room or dungeon"
        )
    bonus_ok = hp == _MAX_HEALTH and pu and _MAX_HEALTH + 2 <= sc <= _BEST_WIN
    if sc != hp and not bonus_ok:
        raise PositionError(
            f"score {sc} of a game won at health {hp} must be {hp}"
            + (" (or 22..30 after a last potion)" if hp == _MAX_HEALTH else "")
        )


def _check_full_deck(nr: int, nd: int, res: int) -> None:
    if nd and nd % 3 != (DECK_SIZE - _ROOM_SIZE) % 3:
        raise PositionError(
            f"dungeon of {nd} cards: a full deal leaves 40, 37, ..., 4 or 1 cards in the dungeon"
        )
    if not nd and nr + res != 2:
        raise PositionError(
            f"room of {nr} cards with resolved={res} and an empty dungeon: the last room of "
            "a full deal holds 2 cards"
        )
