"""Plain-Python twins of the fair search, for the tests only (slow, obviously right).

- :func:`twin_values`: the same depth-limited expectimax as
  ``scoundrel_solver.fair._kernel`` with the
  same leaf, but over :class:`InfoState` and :class:`ChanceNode` objects,
  drawing cards one at a time in order (no multiset or flee-order shortcut).
- :func:`brute_outcomes` / :func:`brute_value`: the exact value (and chance of
  winning) of an information state with no
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
from scoundrel_solver.fair.leaf import LEAF_WIN_BONUS, leaf_estimate

__all__ = ["brute_outcomes", "brute_value", "brute_values", "twin_values"]


def _utility(score: int, win_bonus: float) -> float:
    """What the agent maximises at the end of a game: the score, plus the bonus if won."""
    return score + (win_bonus if score > 0 else 0)


def twin_values(
    info: InfoState, depth: int, par: np.ndarray
) -> list[tuple[Action, float, float, bool]]:
    """Each legal action's (value, chance of winning) at ``depth`` (refills expanded)
    and whether it is exact. The draw of the last room (every card left comes up)
    costs no depth. A decision takes the win chance of its best action (the first
    of equal values)."""
    memo: dict[tuple[object, int], tuple[float, float, bool]] = {}
    bonus = float(par[LEAF_WIN_BONUS])

    def decide(i: InfoState, d: int) -> tuple[float, float, bool]:
        if i.is_over:
            assert i.score is not None
            return float(_utility(i.score, bonus)), float(i.score > 0), True
        best, best_win, exact = -1e18, 0.0, True
        for a in i.legal_actions():
            v, w, e = after(i.apply(a), d)
            if v > best:
                best, best_win = v, w
            exact = exact and e
        return best, best_win, exact

    def after(x: InfoState | ChanceNode, d: int) -> tuple[float, float, bool]:
        if isinstance(x, InfoState):
            return decide(x, d)
        if len(x.base.unseen) + len(x.base.bottom) <= x.to_draw:
            return draw(x, d)  # the last room: every card left comes up, no depth spent
        if d <= 0:
            b = x.base
            pool: list[Card] = [*b.room, *b.unseen, *b.bottom]
            v, w = leaf_estimate(pool, b.health, b.weapon_value, b.weapon_reach, par)
            return v, w, False
        return draw(x, d - 1)

    def draw(x: ChanceNode, d: int) -> tuple[float, float, bool]:
        key = (x, d)
        if key in memo:
            return memo[key]
        total, total_win, exact = 0.0, 0.0, True
        for o, p in x.exact_outcomes():
            nxt = x.draw(o)
            v, w, e = draw(nxt, d) if isinstance(nxt, ChanceNode) else decide(nxt, d)
            total += float(p) * v
            total_win += float(p) * w
            exact = exact and e
        memo[key] = (total, total_win, exact)
        return total, total_win, exact

    out = []
    for a in info.legal_actions():
        v, w, e = after(info.apply(a), depth)
        out.append((a, v, w, e))
    return out


def _worlds(s: State, bottom: tuple[Card, ...]) -> list[State]:
    d = s.dungeon
    unseen = d[: len(d) - len(bottom)]
    worlds = []
    for perm in itertools.permutations(unseen):
        worlds.append(s.with_dungeon((*perm, *bottom)))
    return worlds


def brute_outcomes(
    s: State, bottom: tuple[Card, ...] = (), win_bonus: int = 0
) -> list[tuple[Action, Fraction, Fraction]]:
    """Exact (value, chance of winning) of each legal action for a player who knows all
    but the unseen order and maximises the expected final score plus ``win_bonus`` per
    won game (a decision takes the win chance of its first best action)."""
    memo: dict[InfoState, tuple[Fraction, Fraction]] = {}

    def action_value(info: InfoState, a: Action,
                     worlds: list[State]) -> tuple[Fraction, Fraction]:
        groups: dict[InfoState, list[State]] = {}
        for w in worlds:
            w2 = sc.apply(w, a)
            groups.setdefault(observe(info, a, w2), []).append(w2)
        total, wins = Fraction(0), Fraction(0)
        for i2, g in groups.items():
            v, p = value(i2, g)
            total += len(g) * v
            wins += len(g) * p
        return total / len(worlds), wins / len(worlds)

    def value(info: InfoState, worlds: list[State]) -> tuple[Fraction, Fraction]:
        if info.is_over:
            assert info.score is not None
            return Fraction(_utility(info.score, win_bonus)), Fraction(int(info.score > 0))
        if info in memo:
            return memo[info]
        best: tuple[Fraction, Fraction] | None = None
        for a in info.legal_actions():
            vw = action_value(info, a, worlds)
            if best is None or vw[0] > best[0]:
                best = vw
        assert best is not None
        memo[info] = best
        return best

    info0 = InfoState.from_state(s, bottom)
    worlds = _worlds(s, bottom)
    return [(a, *action_value(info0, a, worlds)) for a in info0.legal_actions()]


def brute_values(
    s: State, bottom: tuple[Card, ...] = (), win_bonus: int = 0
) -> list[tuple[Action, Fraction]]:
    """Exact value of each legal action for a player who knows all but the unseen order
    (the expected final score, plus ``win_bonus`` per won game)."""
    return [(a, v) for a, v, _ in brute_outcomes(s, bottom, win_bonus)]


def brute_value(s: State, bottom: tuple[Card, ...] = (), win_bonus: int = 0) -> Fraction:
    """The exact expected score (plus ``win_bonus`` per win) of optimal fair play from ``s``."""
    if s.is_over:
        assert s.score is not None
        return Fraction(_utility(s.score, win_bonus))
    return max(v for _, v in brute_values(s, bottom, win_bonus))
