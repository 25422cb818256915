"""The table-driven bound of ``_phi`` against the plain loop over monster values.

``_phi`` reads ``P_REM`` as value masks and sums them with tables; here the
same numbers are computed the plain way, one monster value at a time, on every
kind of multiset, weapon and reach (also the unclipped reaches the room walk
passes: an unused weapon, a reach below every monster).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoundrel_core.encoding import MAX_HEALTH
from scoundrel_solver.exact import _phi
from scoundrel_solver.exact._layout import REM_POTION0, REM_WEAPON0


def values(rem: int, first_bit: int) -> list[int]:
    return [v for v in range(2, 11) if (rem >> (first_bit + v - 2)) & 1]


def counts(rem: int) -> dict[int, int]:
    return {v: (rem >> (2 * (v - 2))) & 3 for v in range(2, 15) if (rem >> (2 * (v - 2))) & 3}


def plain_phi_reach(rem: int, hp: int, w: int, cap: int, equal: bool) -> int:
    weapons = [*sorted(values(rem, REM_WEAPON0), reverse=True), 0, 0]
    w1, w2 = weapons[0], weapons[1]
    phi = hp + sum(values(rem, REM_POTION0))
    for v, k in counts(rem).items():
        phi -= k * v
        e0 = w if (w > 0 and v <= cap) else 0
        if equal:
            phi += k * min(v, max(e0, w1))
        else:
            a, b = sorted([e0, w1, w2], reverse=True)[:2]
            phi += min(v, a) + (min(v, b) if k == 2 else 0)
    return phi


def plain_upper_bound(rem: int, hp: int, w: int, cap: int, equal: bool) -> int:
    h = plain_phi_reach(rem, hp, w, cap, equal)
    return MAX_HEALTH + max(values(rem, REM_POTION0), default=0) if h >= MAX_HEALTH else h


@st.composite
def multisets(draw: st.DrawFn) -> int:
    rem = 0
    for v in range(2, 15):
        rem |= draw(st.integers(0, 2)) << (2 * (v - 2))
    rem |= draw(st.integers(0, 511)) << REM_WEAPON0
    rem |= draw(st.integers(0, 511)) << REM_POTION0
    return rem


@settings(max_examples=1500, deadline=None)
@given(multisets(), st.integers(-30, 20), st.integers(0, 10), st.integers(0, 14), st.booleans())
def test_table_bound_is_the_plain_loop(rem: int, hp: int, w: int, cap: int, equal: bool) -> None:
    assert _phi.phi_reach(rem, hp, w, cap, int(equal)) == plain_phi_reach(rem, hp, w, cap, equal)
    assert _phi.upper_bound(rem, hp, w, cap, int(equal)) == plain_upper_bound(
        rem, hp, w, cap, equal)


@settings(max_examples=500, deadline=None)
@given(multisets())
def test_monster_sums_are_the_plain_loop(rem: int) -> None:
    left = counts(rem)
    assert _phi.monsters_left(rem) == sum(v * k for v, k in left.items())
    assert _phi.monster_span(rem) == ((min(left), max(left)) if left else (0, 0))
    assert _phi.monster_masks(rem) == (
        sum(1 << (v - 2) for v in left), sum(1 << (v - 2) for v, k in left.items() if k == 2))
    assert _phi.top_potion(rem) == max(values(rem, REM_POTION0), default=0)
