"""The exact solver's bound by table lookups, over the ``P_REM`` multiset of :mod:`._layout`.

The search evaluates the bound for every partly played room and every room
outcome (tens of times per node), so it reads ``P_REM`` as value masks (bit
``v - 2`` for a monster, weapon or potion of value ``v``) and sums them with
small tables instead of looping over the thirteen monster values:

* ``present``: the monster values left at least once; ``twice``: those left twice.
* what one weapon of value ``x`` absorbs from monsters of the values in a mask
  ``m`` (one of each) is the sum of the values ``<= x`` plus ``x`` times the
  number of the others: ``VALUE_SUM[m & at_most(x)] + x * COUNT[m & ~at_most(x)]``.

The values are those of the plain loop (``tests/naive/bound.py`` is its twin over a State;
tests compare them on random positions and on every weapon and reach).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from scoundrel_core.encoding import MAX_HEALTH
from scoundrel_core.jit import jit

from ._layout import REM_POTION0, REM_WEAPON0

MONSTER_VALUES: Final = 13  # 2..14: bits 0..12 of a value mask
CARD_VALUES: Final = 9  # weapons and potions: 2..10, bits 0..8
_EVEN_BITS: Final = 0x1555555  # bit 0 of every two-bit monster count in P_REM
_HALF: Final = 0x1555  # the even bits of one half (seven values, then six)


def _tables() -> tuple[np.ndarray, ...]:
    masks = np.arange(1 << MONSTER_VALUES)
    value_sum = np.zeros(1 << MONSTER_VALUES, np.int64)
    count = np.zeros(1 << MONSTER_VALUES, np.int64)
    weakest = np.zeros(1 << MONSTER_VALUES, np.int64)
    strongest = np.zeros(1 << MONSTER_VALUES, np.int64)
    pack = np.zeros(1 << MONSTER_VALUES, np.int64)
    for i in range(MONSTER_VALUES):
        has = (masks >> i) & 1
        value_sum += has * (i + 2)
        count += has
        strongest = np.where(has == 1, i + 2, strongest)
        pack |= ((masks >> (2 * i)) & 1) << i if i < 7 else 0
    for i in range(MONSTER_VALUES - 1, -1, -1):
        weakest = np.where((masks >> i) & 1 == 1, i + 2, weakest)
    cards = np.arange(1 << CARD_VALUES)
    best = np.zeros(1 << CARD_VALUES, np.int64)
    second = np.zeros(1 << CARD_VALUES, np.int64)
    for i in range(CARD_VALUES):  # ascending: the last two values seen are the best two
        has = (cards >> i) & 1 == 1
        second = np.where(has, best, second)
        best = np.where(has, i + 2, best)
    # int16: every value fits (a sum is at most 104) and so does every sum of
    # products the bound forms from them; numba bakes global arrays into each
    # compiled function that reads them, so small types keep both the code
    # and the cache lines the walk reads small (83 KiB; as int64 they took 332 KiB).
    tables = (value_sum[: 1 << CARD_VALUES], value_sum, count, weakest, strongest, pack, best,
              second)
    return tuple(t.astype(np.int16) for t in tables)


CARD_SUM, VALUE_SUM, COUNT, WEAKEST, STRONGEST, PACK, BEST, SECOND = _tables()
"""Per value mask: the sum of its values (``CARD_SUM`` for 9-bit masks), how many
values, the weakest and strongest (0 for none); ``PACK``: the even bits of a
two-bits-per-value field packed into a mask; ``BEST``/``SECOND``: the best and
second best value of a 9-bit mask (0 for none)."""


@jit
def monster_masks(rem):  # type: ignore[no-untyped-def]
    """(present, twice): the monster values left at least once, and twice."""
    low = rem & _EVEN_BITS
    high = (rem >> 1) & _EVEN_BITS
    p = low | high
    present = PACK[p & _HALF] | (PACK[(p >> 14) & _HALF] << 7)
    twice = PACK[high & _HALF] | (PACK[(high >> 14) & _HALF] << 7)
    return present, twice


@jit
def at_most(x):  # type: ignore[no-untyped-def]
    """The mask of the monster values 2..x."""
    return (1 << (x - 1)) - 1 if x > 1 else 0


@jit
def absorbed(m, x):  # type: ignore[no-untyped-def]
    """What one weapon of value x absorbs killing one monster of each value in m."""
    if x == 0:
        return 0
    low = at_most(x)
    return VALUE_SUM[m & low] + x * COUNT[m & ~low]


@jit
def monsters_left(rem):  # type: ignore[no-untyped-def]
    """The total value of the monsters left."""
    present, twice = monster_masks(rem)
    return VALUE_SUM[present] + VALUE_SUM[twice]


@jit
def monster_span(rem):  # type: ignore[no-untyped-def]
    """(weakest, strongest) monster value left in ``rem`` (0, 0 if none)."""
    present, _ = monster_masks(rem)
    return WEAKEST[present], STRONGEST[present]


@jit
def top_potion(rem):  # type: ignore[no-untyped-def]
    return BEST[(rem >> REM_POTION0) & 0x1FF]


@jit
def phi_reach(rem, hp, w, cap, equal):  # type: ignore[no-untyped-def]
    """The most phi can reach: phi now, plus what weapons can still absorb, plus
    every potion left (see the kernel's docstring). ``upper_bound`` caps it.

    Per monster value, the weapons that could still kill it: the equipped one
    (``w``) if the value is at most ``cap``, and the two best weapons left
    (``w1``, ``w2``). Under ``strict`` each weapon kills one monster of a value,
    so the two monsters of a value count the best two; under ``equal`` the
    best one counts for both.
    """
    weapons = (rem >> REM_WEAPON0) & 0x1FF
    w1 = BEST[weapons]
    w2 = SECOND[weapons]
    present, twice = monster_masks(rem)
    phi = hp - VALUE_SUM[present] - VALUE_SUM[twice] + CARD_SUM[(rem >> REM_POTION0) & 0x1FF]
    reach = at_most(cap) if w > 0 else 0
    near_p = present & reach  # the values the equipped weapon may fight
    near_t = twice & reach
    if equal:
        a = w if w > w1 else w1
        return (phi + absorbed(near_p, a) + absorbed(near_t, a)
                + absorbed(present ^ near_p, w1) + absorbed(twice ^ near_t, w1))
    if w >= w1:
        a, b = w, w1
    elif w >= w2:
        a, b = w1, w
    else:
        a, b = w1, w2
    return (phi + absorbed(near_p, a) + absorbed(near_t, b)
            + absorbed(present ^ near_p, w1) + absorbed(twice ^ near_t, w2))


@jit
def upper_bound(rem, hp, w, cap, equal):  # type: ignore[no-untyped-def]
    """A score the position cannot beat (see the kernel's docstring)."""
    h = phi_reach(rem, hp, w, cap, equal)
    if h >= MAX_HEALTH:
        return MAX_HEALTH + top_potion(rem)
    return h
