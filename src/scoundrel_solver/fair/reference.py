"""Plain-Python twins of the fair search, for tests (slow, obviously right).

- :func:`twin_values`: the same depth-limited expectimax as ``_kernel`` with the
  same leaf, but over :class:`InfoState` and :class:`ChanceNode` objects,
  drawing cards one at a time in order (no multiset or flee-order shortcut).
- :func:`brute_value`: the exact value of an information state with no
  chance model at all: every ordering of the unseen cards is a world; an
  action's value averages the worlds, grouped by what the player then sees.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np

import scoundrel_core as sc
from scoundrel_core import Action, Card, State
from scoundrel_core.info import ChanceNode, InfoState, observe

from .leaf import LEAF_WIN_BONUS, leaf_value

__all__ = ["brute_value", "brute_values", "twin_values"]


def _utility(score: int, win_bonus: float) -> float:
    """What the agent maximises at the end of a game: the score, plus the bonus if won."""
    return score + (win_bonus if score > 0 else 0)


def twin_values(
    info: InfoState, depth: int, par: np.ndarray
) -> list[tuple[Action, float, bool]]:
    """Each legal action's value at ``depth`` (refills expanded) and whether it is exact."""
    memo: dict[tuple[object, int], tuple[float, bool]] = {}
    bonus = float(par[LEAF_WIN_BONUS])

    def decide(i: InfoState, d: int) -> tuple[float, bool]:
        if i.is_over:
            assert i.score is not None
            return float(_utility(i.score, bonus)), True
        best, exact = -1e18, True
        for a in i.legal_actions():
            v, e = after(i.apply(a), d)
            best = max(best, v)
            exact = exact and e
        return best, exact

    def after(x: InfoState | ChanceNode, d: int) -> tuple[float, bool]:
        if isinstance(x, InfoState):
            return decide(x, d)
        if d <= 0:
            b = x.base
            pool: list[Card] = [*b.room, *b.unseen, *b.bottom]
            return leaf_value(pool, b.health, b.weapon_value, b.weapon_reach, par), False
        return draw(x, d - 1)

    def draw(x: ChanceNode, d: int) -> tuple[float, bool]:
        key = (x, d)
        if key in memo:
            return memo[key]
        total, exact = 0.0, True
        for o, p in x.exact_outcomes():
            nxt = x.draw(o)
            v, e = draw(nxt, d) if isinstance(nxt, ChanceNode) else decide(nxt, d)
            total += float(p) * v
            exact = exact and e
        memo[key] = (total, exact)
        return total, exact

    out = []
    for a in info.legal_actions():
        v, e = after(info.apply(a), depth)
        out.append((a, v, e))
    return out


def _worlds(s: State, bottom: tuple[Card, ...]) -> list[State]:
    d = s.dungeon
    unseen = d[: len(d) - len(bottom)]
    worlds = []
    for perm in itertools.permutations(unseen):
        worlds.append(s.with_dungeon((*perm, *bottom)))
    return worlds


def brute_values(
    s: State, bottom: tuple[Card, ...] = (), win_bonus: int = 0
) -> list[tuple[Action, Fraction]]:
    """Exact value of each legal action for a player who knows all but the unseen order
    (the expected final score, plus ``win_bonus`` per won game)."""
    memo: dict[InfoState, Fraction] = {}

    def action_value(info: InfoState, a: Action, worlds: list[State]) -> Fraction:
        groups: dict[InfoState, list[State]] = {}
        for w in worlds:
            w2 = sc.apply(w, a)
            groups.setdefault(observe(info, a, w2), []).append(w2)
        total = sum(
            (len(g) * value(i2, g) for i2, g in groups.items()), start=Fraction(0)
        )
        return total / len(worlds)

    def value(info: InfoState, worlds: list[State]) -> Fraction:
        if info.is_over:
            assert info.score is not None
            return Fraction(_utility(info.score, win_bonus))
        if info in memo:
            return memo[info]
        v = max(action_value(info, a, worlds) for a in info.legal_actions())
        memo[info] = v
        return v

    info0 = InfoState.from_state(s, bottom)
    worlds = _worlds(s, bottom)
    return [(a, action_value(info0, a, worlds)) for a in info0.legal_actions()]


def brute_value(s: State, bottom: tuple[Card, ...] = (), win_bonus: int = 0) -> Fraction:
    """The exact expected score (plus ``win_bonus`` per win) of optimal fair play from ``s``."""
    if s.is_over:
        assert s.score is not None
        return Fraction(_utility(s.score, win_bonus))
    return max(v for _, v in brute_values(s, bottom, win_bonus))
