"""The exact solver's compact position: one row of int64 fields (``P_*``).

Cards are the types of :mod:`scoundrel_core.encoding` (0 = no card). A position is one row
of ``NP`` int64 fields. The dungeon is packed 12 types to a word,
``TYPE_BITS`` bits each, top card in the lowest bits of ``P_D0``; four words
hold 48 cards. ``P_REM`` is the multiset of cards not yet resolved (dungeon and
room)::

    bits  0..25   two bits per monster value v at 2*(v-2): how many are left (0..2)
    bits 26..34   one bit per weapon value v at 26+(v-2)
    bits 35..43   one bit per potion value v at 35+(v-2)

``P_CAP`` is the strongest monster the equipped weapon may still fight
(``UNUSED_REACH`` for an unused weapon; 0 without a weapon): it folds the last
kill and the wear rule into one number.
"""

from __future__ import annotations

from typing import Final

import numpy as np

import scoundrel_core as sc
from scoundrel_core.encoding import NTYPES, card_type

P_D0: Final = 0  # dungeon words P_D0..P_D0+3
P_ND: Final = 4  # dungeon size
P_R0: Final = 5  # room types P_R0..P_R0+3, room order, 0 past the end
P_NR: Final = 9  # room size
P_REM: Final = 10  # multiset of unresolved cards
P_HP: Final = 11  # health
P_W: Final = 12  # weapon value, 0 = none
P_CAP: Final = 13  # strongest monster the weapon may fight
P_PU: Final = 14  # potion drunk in this room
P_RES: Final = 15  # cards resolved in this room
P_FLED: Final = 16  # this room came from a flee and may not be fled
NP: Final = 17

PER_WORD: Final = 12  # types per dungeon word
DUNGEON_WORDS: Final = 4  # P_D0..P_D0+3: room for 48 cards

REM_WEAPON0: Final = 26  # bit of the weapon of value 2 in P_REM
REM_POTION0: Final = 35  # bit of the potion of value 2 in P_REM


def _rem_bits() -> np.ndarray:
    """Per type, what one card of it adds to ``P_REM``."""
    bit = np.zeros(NTYPES, np.int64)
    for c in sc.FULL_DECK:
        if c.kind is sc.Kind.MONSTER:
            shift = 2 * (c.value - 2)
        else:
            shift = (REM_WEAPON0 if c.kind is sc.Kind.WEAPON else REM_POTION0) + c.value - 2
        bit[card_type(c)] = 1 << shift
    return bit


REM_BIT: Final = _rem_bits()
