"""The bound's term for one known deal: the best line, penalised at its first chance steps.

For a deal whose whole order is known, the best over every line of play of
``1{won} - penalties``, where only the first ``steps`` chance steps after the
first room's deal pay ``V(I') - E[V(I') | I, a]`` (the deal itself pays its
own penalty too, the same for every line). Below the last penalised step
nothing is charged, so the rest of a line is worth 1 if the position it
reached can still be won by a player who sees the dungeon: the exact solver
answers that (:func:`~scoundrel_solver.exact.is_winnable`), once per position.

Why this is still a bound on every fair player (docs/bound.md): each penalty
has mean zero given what a fair player knew when it acted, so dropping the
penalties of the later steps keeps the mean of ``1{won} - penalties`` over a
fair player's games equal to its win rate; on each deal its line is one of
the lines maximised over. Two shortcuts can only raise a deal's value, never
lower it, so the bound stays sound:

- an exact sub-solve stopped by its node limit counts as a win (``unproven``);
- at the last penalised step a line whose best possible worth, ``1 - penalty``,
  cannot beat the best line found is not solved: its worth is at most that.

Every other line is walked: real-valued penalties leave no other sound cut.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass

import scoundrel_core as sc
from scoundrel_core import State
from scoundrel_core.info import ChanceNode, InfoState, observe

from ..errors import SolverError
from ..exact import is_winnable
from ..fair.optimum import memo_key
from .values import Charges

__all__ = ["MAX_STEPS", "DealBound", "deal_bound", "opening_node"]

MAX_STEPS = 8
"""The most chance steps a deal's search penalises after the deal: each one
multiplies the lines walked (tens per room)."""


@dataclass(frozen=True)
class DealBound:
    """One deal's term of the bound, and what it cost.

    ``value`` = ``best - opening``: the best penalised line, less the deal's own
    penalty. ``winnable``: whether the deal is won with the dungeon seen (the
    exact solver). ``unproven``: sub-solves stopped by their node limit, counted
    as wins. ``solves``: exact sub-solves run; ``chance_nodes``: distinct chance
    steps charged; ``decisions``: positions searched.
    """

    value: float
    best: float
    opening: float
    winnable: bool
    unproven: int
    solves: int
    chance_nodes: int
    decisions: int
    seconds: float


def opening_node(s: State) -> ChanceNode:
    """The chance node before the first room of ``s``: its room put back among the unseen."""
    info = InfoState.initial(s)
    base = InfoState(
        variant=info.variant, room=(), health=info.health, weapon_value=info.weapon_value,
        last_kill=info.last_kill, potion_used=info.potion_used,
        resolved_in_room=info.resolved_in_room, fled_last=info.fled_last,
        unseen=info.unseen | frozenset(info.room), bottom=info.bottom)
    return ChanceNode(base, len(info.room), fled=False)


class _Search:
    def __init__(self, charges: Charges, max_nodes: int | None) -> None:
        self.charges = charges
        self.max_nodes = max_nodes
        self.memo: dict[Hashable, float] = {}
        self.won: dict[State, bool] = {}
        self.unproven = 0
        self.nodes: set[Hashable] = set()

    def winnable(self, s: State) -> bool:
        """Whether ``s`` can be won with the dungeon seen; a solve cut short counts as won."""
        if s.is_over:
            return bool(s.health > 0)
        got = self.won.get(s)
        if got is None:
            answer = is_winnable(s, self.max_nodes)
            if answer is None:
                self.unproven += 1
                answer = True  # counting it won can only raise the bound
            got = self.won[s] = answer
        return got

    def best(self, s: State, info: InfoState, left: int) -> float:
        """The best ``1{won} - penalties`` from the decision ``s`` (seen as ``info``),
        ``left`` chance steps still penalised (at least 1)."""
        if s.is_over:
            return 1.0 if s.health > 0 else 0.0
        key = (s, memo_key(info), left)
        got = self.memo.get(key)
        if got is not None:
            return got
        best = -float("inf")
        drawn: list[tuple[float, State, InfoState]] = []
        for a in sc.legal_actions(s):
            s2 = sc.apply(s, a)
            y = info.apply(a)
            if isinstance(y, ChanceNode):
                after = observe(info, a, s2)
                self.nodes.add(memo_key(y))
                drawn.append((self.charges.value(after) - self.charges.mean(y), s2, after))
            else:
                best = max(best, self.best(s2, y, left))
        # Least charged first: at the last penalised step a line is worth at most
        # 1 - penalty, so once that cannot beat the best, neither can the rest.
        drawn.sort(key=lambda d: d[0])
        for penalty, s2, after in drawn:
            if left == 1:
                if 1.0 - penalty <= best:
                    break
                v = (1.0 if self.winnable(s2) else 0.0) - penalty
            else:
                v = self.best(s2, after, left - 1) - penalty
            best = max(best, v)
        self.memo[key] = best
        return best


def deal_bound(s: State, charges: Charges, steps: int, opening_mean: float | None = None,
               max_nodes: int | None = None) -> DealBound:
    """The bound's term for the deal ``s`` (a game not yet played: its first room dealt).

    ``charges``: ``V`` and its means (:mod:`.values`); ``steps``: the chance steps
    penalised after the deal (0 .. :data:`MAX_STEPS`); ``opening_mean``: ``E[V]`` over
    every first room of the deck (computed here if None: the same for every deal of a
    full deck, so a caller solving many deals passes it); ``max_nodes``: the exact
    sub-solves' node limit (None: none), a solve cut short counting as a win.
    """
    if isinstance(steps, bool) or not isinstance(steps, int) or not 0 <= steps <= MAX_STEPS:
        raise SolverError(f"steps {steps!r} must be an integer 0..{MAX_STEPS}")
    if s.variant.may_flee_twice:
        raise SolverError(f"variant {s.variant} lets a room be fled again and again: the "
                          "bound's search does not handle its cycles of flees")
    t0 = time.perf_counter()
    search = _Search(charges, max_nodes)
    info = InfoState.initial(s)
    if opening_mean is None:
        opening_mean = charges.mean(opening_node(s))
    opening = charges.value(info) - opening_mean
    best = float(search.winnable(s)) if steps == 0 else search.best(s, info, steps)
    winnable = search.winnable(s) if steps else bool(best)
    return DealBound(
        value=best - opening, best=best, opening=opening, winnable=winnable,
        unproven=search.unproven, solves=len(search.won), chance_nodes=len(search.nodes),
        decisions=len(search.memo), seconds=time.perf_counter() - t0)
