"""The solver's compact position: one row of int64 fields, and card types.

The search sees cards by *type*, not identity: the two monsters of a value (a
club and a spade) behave identically, so they share a type and positions that
differ only by swapping them are one position. Types (0 = no card)::

    1..13   monster of value 2..14     (type = value - 1)
    14..22  weapon of value 2..10      (type = value + 12)
    23..31  potion of value 2..10      (type = value + 21)

A position is one row of ``NF`` int64 fields (``F_*`` below). The dungeon is
packed 12 types to a word, 5 bits each, top card in the lowest bits of
``F_D0``; four words hold 48 cards. ``F_REM`` is the multiset of cards not yet
resolved (dungeon and room)::

    bits  0..25   two bits per monster value v at 2*(v-2): how many are left (0..2)
    bits 26..34   one bit per weapon value v at 26+(v-2)
    bits 35..43   one bit per potion value v at 35+(v-2)

``F_CAP`` is the strongest monster the equipped weapon may still fight (14 for
an unused weapon; 0 without a weapon): it folds the last kill and the wear rule
into one number.
"""

from __future__ import annotations

from typing import Final

F_D0: Final = 0  # dungeon words F_D0..F_D0+3
F_ND: Final = 4  # dungeon size
F_R0: Final = 5  # room types F_R0..F_R0+3, room order, 0 past the end
F_NR: Final = 9  # room size
F_REM: Final = 10  # multiset of unresolved cards
F_HP: Final = 11  # health
F_W: Final = 12  # weapon value, 0 = none
F_CAP: Final = 13  # strongest monster the weapon may fight
F_PU: Final = 14  # potion drunk in this room
F_RES: Final = 15  # cards resolved in this room
F_FLED: Final = 16  # this room came from a flee and may not be fled
NF: Final = 17

PER_WORD: Final = 12
TYPE_BITS: Final = 5
TYPE_MASK: Final = 31

MAX_HEALTH: Final = 20

# Flee rules, as integers for the kernel.
FLEE_NOT_TWICE: Final = 0  # classic
FLEE_ANY: Final = 1  # easy
FLEE_NEVER: Final = 2  # hard

# Moves recorded on the path: type * 2 + with_weapon for a card, or
# MOVE_FLEE + k for k flees in a row.
MOVE_FLEE: Final = 1000


def monster_type(value: int) -> int:
    return value - 1


def weapon_type(value: int) -> int:
    return value + 12


def potion_type(value: int) -> int:
    return value + 21
