"""What a player sees at a decision, as named numbers: the data's columns, the model's inputs.

Cards are counted by *kind and value* (the two monsters of a value play alike,
as in the search's card types): 13 monster values (2..14), 9 weapon values and 9
potion values (2..10), 31 counts in all, in the order of
:mod:`scoundrel_core.encoding`'s types. The unseen cards are such counts (their
order is unknown to the player); the room and the known bottom are kept as
cards in the data (the bottom's order is known) and counted the same way for
the model.

Every number here is a function of the :class:`~scoundrel_core.info.InfoState`:
two deals that agree on what the player has seen get the same features.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import numpy as np

from scoundrel_core import Card, Kind, parse_card
from scoundrel_core.encoding import TYPE_KIND, TYPE_VALUE, card_type
from scoundrel_core.info import InfoState
from scoundrel_core.variants import FLEE_RULES

__all__ = [
    "BOTTOM_ORDER",
    "CARD_KINDS",
    "FEATURES",
    "FEATURES_ORDER",
    "NKINDS",
    "ORDER_FEATURES",
    "STATE_COLUMNS",
    "UNSEEN_COLUMNS",
    "counts",
    "feature_names",
    "features_of",
    "features_of_row",
    "phase",
    "state_row",
]

NKINDS: Final = 31
"""Card kinds by value: monsters 2..14, weapons 2..10, potions 2..10."""


def _kind_name(t: int) -> str:
    kind = Kind(int(TYPE_KIND[t]))
    letter = {Kind.MONSTER: "m", Kind.WEAPON: "w", Kind.POTION: "p"}[kind]
    return f"{letter}{int(TYPE_VALUE[t])}"


CARD_KINDS: Final[tuple[str, ...]] = tuple(_kind_name(t) for t in range(1, NKINDS + 1))
"""The 31 kinds by value, as ``m2`` .. ``m14``, ``w2`` .. ``w10``, ``p2`` .. ``p10``."""
UNSEEN_COLUMNS: Final[tuple[str, ...]] = tuple(f"unseen_{k}" for k in CARD_KINDS)
"""The data's columns of unseen cards: how many of each kind and value."""

STATE_COLUMNS: Final = (
    "health", "weapon", "last_kill", "potion_used", "resolved", "fled_last", "can_flee",
    "room", "bottom", "unseen", "cards_left", *UNSEEN_COLUMNS,
)
"""The data's columns of what the player sees (``room`` and ``bottom`` are card lists)."""

_SCALARS: Final = (
    "health", "weapon", "last_kill", "reach", "potion_used", "resolved", "fled_last",
    "can_flee", "room_cards", "unseen", "bottom_cards", "flee_rule", "equal",
    "pool_monsters", "pool_weapons", "pool_potions", "pool_top_monster",
)
FEATURES: Final[tuple[str, ...]] = (
    *_SCALARS,
    *(f"room_{k}" for k in CARD_KINDS),
    *(f"unseen_{k}" for k in CARD_KINDS),
    *(f"bottom_{k}" for k in CARD_KINDS),
)
"""The model's inputs, in order: the scalars, then the room's, the unseen and the
bottom's counts by kind. ``last_kill`` is 0 for an unused weapon; ``reach`` is the
strongest monster the weapon may still fight; the ``pool_*`` sums run over every
card not yet resolved (room, unseen, bottom)."""


BOTTOM_ORDER: Final = 16
"""How many cards of the known bottom :data:`ORDER_FEATURES` describe one by one."""
ORDER_FEATURES: Final[tuple[str, ...]] = tuple(
    f"bottom{i}_{kind}" for i in range(1, BOTTOM_ORDER + 1) for kind in ("m", "w", "p"))
"""The known bottom in its order: for each of its first :data:`BOTTOM_ORDER` cards (1 is
the first to be dealt once the unseen cards run out), its value in the column of its kind
(monster, weapon, potion) and 0 in the other two; all three 0 past the bottom's end."""
FEATURES_ORDER: Final[tuple[str, ...]] = (*FEATURES, *ORDER_FEATURES)
"""The inputs of a value that sees the bottom's order: :data:`FEATURES`, then
:data:`ORDER_FEATURES`. Most of a classic game's last rooms are dealt from a bottom the
player knows card by card (the rooms fled), which the counts by kind do not tell apart."""


def feature_names(order: bool = False) -> tuple[str, ...]:
    """The inputs of a value: :data:`FEATURES_ORDER` if it reads the bottom's ``order``,
    else :data:`FEATURES`."""
    return FEATURES_ORDER if order else FEATURES


def counts(cards: Iterable[Card]) -> list[int]:
    """How many of ``cards`` there are of each kind and value (``CARD_KINDS`` order)."""
    out = [0] * NKINDS
    for c in cards:
        out[card_type(c) - 1] += 1
    return out


def phase(unseen: int) -> str:
    """The phase of the game by unseen cards: ``open`` (more than 30), ``middle`` (13-30),
    ``end`` (12 or fewer)."""
    return "open" if unseen > 30 else "middle" if unseen > 12 else "end"


def state_row(info: InfoState) -> dict[str, Any]:
    """The data's columns of what the player sees at ``info`` (``STATE_COLUMNS``)."""
    row: dict[str, Any] = {
        "health": info.health,
        "weapon": info.weapon_value,
        "last_kill": info.last_kill or 0,
        "potion_used": info.potion_used,
        "resolved": info.resolved_in_room,
        "fled_last": info.fled_last,
        "can_flee": info.can_flee(),
        "room": [str(c) for c in info.room],
        "bottom": [str(c) for c in info.bottom],
        "unseen": len(info.unseen),
        "cards_left": info.dungeon_size,
    }
    row.update(zip(UNSEEN_COLUMNS, counts(info.unseen), strict=True))
    return row


def order_block(bottom: Sequence[Card]) -> list[int]:
    """:data:`ORDER_FEATURES` of a known bottom (first to be dealt first)."""
    out = [0] * len(ORDER_FEATURES)
    slot = {Kind.MONSTER: 0, Kind.WEAPON: 1, Kind.POTION: 2}
    for i, c in enumerate(bottom[:BOTTOM_ORDER]):
        t = card_type(c)
        out[3 * i + slot[Kind(int(TYPE_KIND[t]))]] = int(TYPE_VALUE[t])
    return out


def _features(variant_flee: int, equal: int, reach: int, row: Mapping[str, Any],
              room: Sequence[Card], bottom: Sequence[Card], unseen: Sequence[int],
              order: bool = False) -> np.ndarray:
    room_n = counts(room)
    bottom_n = counts(bottom)
    pool = [a + b + c for a, b, c in zip(room_n, unseen, bottom_n, strict=True)]
    value = [int(TYPE_VALUE[t]) for t in range(1, NKINDS + 1)]
    kind = [int(TYPE_KIND[t]) for t in range(1, NKINDS + 1)]

    def pool_sum(k: Kind) -> int:
        return sum(n * v for n, v, kk in zip(pool, value, kind, strict=True) if kk == int(k))

    top = max((v for n, v, kk in zip(pool, value, kind, strict=True)
               if n and kk == int(Kind.MONSTER)), default=0)
    scalars = [
        row["health"], row["weapon"], row["last_kill"], reach, int(row["potion_used"]),
        row["resolved"], int(row["fled_last"]), int(row["can_flee"]), len(room),
        sum(unseen), len(bottom), variant_flee, equal,
        pool_sum(Kind.MONSTER), pool_sum(Kind.WEAPON), pool_sum(Kind.POTION), top,
    ]
    extra = order_block(bottom) if order else []
    return np.array([*scalars, *room_n, *unseen, *bottom_n, *extra], np.float64)


def features_of(info: InfoState, order: bool = False) -> np.ndarray:
    """The model's inputs at ``info``: ``FEATURES``, or ``FEATURES_ORDER`` with ``order``."""
    row = state_row(info)
    return _features(info.variant.flee_code, info.variant.wear_code, info.weapon_reach, row,
                     info.room, info.bottom, counts(info.unseen), order)


def features_of_row(row: Mapping[str, Any], variant: str, order: bool = False) -> np.ndarray:
    """The model's inputs from a data row's columns (the same numbers as :func:`features_of`
    of the position the row was taken at; the ``bottom`` column keeps the bottom's order)."""
    from scoundrel_core import get_variant

    v = get_variant(variant)
    reach = v.weapon_reach(int(row["weapon"]), int(row["last_kill"]) or None)
    return _features(FLEE_RULES.index(v.name), v.wear_code, reach, row,
                     [parse_card(t) for t in row["room"]], [parse_card(t) for t in row["bottom"]],
                     [int(row[c]) for c in UNSEEN_COLUMNS], order)
