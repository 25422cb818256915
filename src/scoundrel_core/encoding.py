"""The one integer encoding of the game, for the numba engines and their facades.

The engines (the exact solver's and the fair agent's searches, the vector
environment) see cards by *type*, not identity: the two monsters of a value
(a club and a spade) behave identically, so they share a type. A type fits in
``TYPE_BITS`` bits; 0 means "no card" (an empty room slot or the padding of a
packed dungeon)::

    1..13   monster of value 2..14     (type = value - 1)
    14..22  weapon of value 2..10      (type = value + 12)
    23..31  potion of value 2..10      (type = value + 21)

Types are ordered monster < weapon < potion, by value within a kind; the fair
search enumerates draws in this order. ``TYPE_KIND`` and ``TYPE_VALUE`` read a
type back; kinds are the numbers of :class:`scoundrel_core.Kind`. The
observation of :mod:`scoundrel_core.env` numbers the same types from 0
(``type - 1``: it has no slot for "no card"). Flee rules are numbered by
their place in ``FLEE_RULES``. The rules' numbers (``MAX_HEALTH``,
``ROOM_SIZE``) are defined here once.

Plain Python and numpy: :mod:`scoundrel_core.jit` compiles what the engines
call. The slow twins (``scoundrel_core.reference``; the exact solver's and the fair
search's under ``tests/naive``) do not use this module on
purpose: they state the rules again in plain Python, so a mistake here cannot
hide in both.

>>> import scoundrel_core as sc
>>> [card_type(sc.parse_card(t)) for t in ("2C", "AS", "2D", "10D", "2H", "10H")]
[1, 13, 14, 22, 23, 31]
>>> int(TYPE_KIND[13]) == KIND_MONSTER, int(TYPE_VALUE[13])
(True, 14)
>>> flee_rule_code(sc.get_variant("easy", "equal")) == FLEE_ANY
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import numpy as np

from .cards import FULL_DECK, Card, Kind

if TYPE_CHECKING:
    from .variants import Variant

__all__ = [
    "FIRST_MONSTER",
    "FIRST_POTION",
    "FIRST_WEAPON",
    "FLEE_ANY",
    "FLEE_NEVER",
    "FLEE_NOT_TWICE",
    "KIND_MONSTER",
    "KIND_NONE",
    "KIND_POTION",
    "KIND_WEAPON",
    "MAX_HEALTH",
    "NO_CARD",
    "NTYPES",
    "RESOLVED_PER_ROOM",
    "ROOM_SIZE",
    "TYPE_BITS",
    "TYPE_BY_ID",
    "TYPE_KIND",
    "TYPE_MASK",
    "TYPE_VALUE",
    "UNUSED_REACH",
    "card_type",
    "flee_rule_code",
    "monster_type",
    "potion_type",
    "type_kind",
    "type_value",
    "weapon_type",
]

# -- the rules' numbers ------------------------------------------------------------------

MAX_HEALTH: Final = 20  # the one definition: scoundrel_core.MAX_HEALTH is this
"""Health at the start, and the most a player can have (the one definition)."""
ROOM_SIZE: Final = 4
"""Cards in a full room."""
RESOLVED_PER_ROOM: Final = ROOM_SIZE - 1  # cards resolved before the room is refilled
"""Cards resolved before the room is refilled."""
UNUSED_REACH: Final = 14  # an unused weapon may fight every monster (an ace is 14)
"""The reach of an unused weapon: every monster (an ace is 14)."""

# -- kinds: the numbers of scoundrel_core.Kind -----------------------------------------------

KIND_NONE: Final = -1  # the kind of NO_CARD
"""The kind of ``NO_CARD``."""
KIND_MONSTER: Final = int(Kind.MONSTER)
"""``Kind.MONSTER`` as a number."""
KIND_WEAPON: Final = int(Kind.WEAPON)
"""``Kind.WEAPON`` as a number."""
KIND_POTION: Final = int(Kind.POTION)
"""``Kind.POTION`` as a number."""

# -- card types -------------------------------------------------------------------------

NO_CARD: Final = 0
"""The type of an empty slot."""
NTYPES: Final = 32  # arrays indexed by type have this length (index 0: no card)
"""The length of arrays indexed by card type (index 0: no card)."""
TYPE_BITS: Final = 5
"""Bits that hold one card type."""
TYPE_MASK: Final = (1 << TYPE_BITS) - 1
"""The mask of one card type's bits."""


def monster_type(value: int) -> int:
    """The type of the monster of this value (2..14 -> 1..13)."""
    return value - 1


def weapon_type(value: int) -> int:
    """The type of the weapon of this value (2..10 -> 14..22)."""
    return value + 12


def potion_type(value: int) -> int:
    """The type of the potion of this value (2..10 -> 23..31)."""
    return value + 21


def _type_of(c: Card) -> int:
    if c.kind is Kind.MONSTER:
        return monster_type(c.value)
    if c.kind is Kind.WEAPON:
        return weapon_type(c.value)
    return potion_type(c.value)


TYPE_BY_ID: Final = tuple(_type_of(c) for c in FULL_DECK)
"""The type of each card, by card id."""


def card_type(c: Card) -> int:
    """The kernels' type of a card."""
    return TYPE_BY_ID[c.id]


FIRST_MONSTER: Final = 1  # the type of the monster of value 2
"""The type of the monster of value 2."""
FIRST_WEAPON: Final = 14
"""The type of the weapon of value 2."""
FIRST_POTION: Final = 23
"""The type of the potion of value 2."""


def type_kind(t: int) -> int:
    """The kind of a card type (by arithmetic: in a hot loop, cheaper than ``TYPE_KIND``;
    :mod:`scoundrel_core.jit` compiles it for the engines)."""
    if t < FIRST_WEAPON:
        return KIND_MONSTER
    if t < FIRST_POTION:
        return KIND_WEAPON
    return KIND_POTION


def type_value(t: int) -> int:
    """The value of a card type (by arithmetic, like ``type_kind``)."""
    if t < FIRST_WEAPON:
        return t + 2 - FIRST_MONSTER
    if t < FIRST_POTION:
        return t + 2 - FIRST_WEAPON
    return t + 2 - FIRST_POTION


def _type_tables() -> tuple[np.ndarray, np.ndarray]:
    kind = np.full(NTYPES, KIND_NONE, np.int64)
    value = np.zeros(NTYPES, np.int64)
    for c in FULL_DECK:
        kind[card_type(c)] = int(c.kind)
        value[card_type(c)] = c.value
    return kind, value


TYPE_KIND, TYPE_VALUE = _type_tables()

# -- flee rules ------------------------------------------------------------------------------

# The places of the variants in FLEE_RULES (the observation's flee-rule slot; tested).
FLEE_NOT_TWICE: Final = 0  # classic: a room dealt by a flee may not be fled
"""Classic's flee rule: a room dealt by a flee may not be fled."""
FLEE_ANY: Final = 1  # easy: any full room, also several times in a row
"""Easy's flee rule: any full room, also several times in a row."""
FLEE_NEVER: Final = 2  # hard
"""Hard's flee rule: no fleeing."""

_FLEE_RULE_CODE: Final = {"classic": FLEE_NOT_TWICE, "easy": FLEE_ANY, "hard": FLEE_NEVER}


def flee_rule_code(variant: Variant) -> int:
    """The engines' number for a variant's flee rule."""
    return _FLEE_RULE_CODE[variant.name]
