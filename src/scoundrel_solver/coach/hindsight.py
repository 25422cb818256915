"""The hindsight turning point: the first decision after which even perfect play could no
longer win.

Once a game is over its deal may be used: the exact solver, which sees the whole
dungeon, says of each position along the line played whether some line from
there still wins (:func:`~scoundrel_solver.exact.is_winnable`). That answer can
only turn from yes to no along a line, never back (a position wins if one of its
actions leads to a winning position, and with the dungeon known there is no
chance), so the turning point is found by halving the line: about ``log2`` of
its length solves, each capped at :data:`MAX_NODES` nodes. A solve stopped by
the cap leaves the answer unproven, and the turning point says so.

It is hindsight: a player cannot see the order of the dungeon, so the turning
point is where the game was lost, not necessarily an error (the key moments of
the review, from the fair agent, judge the decisions).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

import scoundrel_core as sc
from scoundrel_core import Action, State

from ..exact.solve import is_winnable

__all__ = ["MAX_NODES", "UNKNOWN", "TurningPoint", "turning_point", "turning_point_slow"]

MAX_NODES: Final = 2_000_000
"""The exact solver's cap per position asked (a classic position takes far fewer)."""

Outcome = Literal["turned", "won", "winnable", "never", "unproven", "unknown"]
"""``turned``: a step after which the game could no longer be won; ``won``: the game was
won; ``winnable``: not finished and still winnable; ``never``: the deal could not be won
from the start; ``unproven``: a solve was stopped by its cap; ``unknown``: the order of
the dungeon is not known (a position given as what a player sees)."""


@dataclass(frozen=True)
class TurningPoint:
    """Where, in hindsight, the game was lost."""

    outcome: Outcome
    step: int | None
    """The step (1 for the first action) after which no line could win; None unless
    ``outcome`` is ``turned``."""
    solves: int
    """How many positions the exact solver was asked about."""

    def to_json(self) -> dict[str, Any]:
        """The turning point as ``/api/review`` gives it."""
        return {"outcome": self.outcome, "step": self.step, "solves": self.solves,
                "max_nodes": MAX_NODES}


UNKNOWN: Final = TurningPoint("unknown", None, 0)
"""The turning point of a game whose dungeon order is not known."""

Winnable = Callable[[State], "bool | None"]


def _winnable(max_nodes: int) -> Winnable:
    def ask(s: State) -> bool | None:
        if s.is_over:
            return s.won
        return is_winnable(s, max_nodes)
    return ask


def _states(start: State, actions: Sequence[Action]) -> list[State]:
    states = [start]
    for a in actions:
        states.append(sc.apply(states[-1], a))
    return states


def turning_point(start: State, actions: Sequence[Action],
                  max_nodes: int = MAX_NODES) -> TurningPoint:
    """The turning point of the game played from ``start`` along ``actions`` (legal), with
    the whole deal known; each solve capped at ``max_nodes`` nodes."""
    states = _states(start, actions)
    ask = _winnable(max_nodes)
    solves = 0

    def wins(i: int) -> bool | None:
        nonlocal solves
        solves += not states[i].is_over
        return ask(states[i])

    last = wins(len(states) - 1)
    if last is None:
        return TurningPoint("unproven", None, solves)
    if last:
        return TurningPoint("won" if states[-1].is_over else "winnable", None, solves)
    first = wins(0) if len(states) > 1 else last
    if first is None:
        return TurningPoint("unproven", None, solves)
    if not first:
        return TurningPoint("never", None, solves)
    lo, hi = 0, len(states) - 1  # winnable at lo, not at hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        w = wins(mid)
        if w is None:
            return TurningPoint("unproven", None, solves)
        lo, hi = (mid, hi) if w else (lo, mid)
    return TurningPoint("turned", hi, solves)


def turning_point_slow(start: State, actions: Sequence[Action],
                       winnable: Winnable | None = None) -> TurningPoint:
    """The slow twin of :func:`turning_point`: every position asked in turn, the first
    one that cannot win after a winnable one names the step (``winnable``: the question,
    the exact solver's without a cap by default)."""
    ask = winnable or _winnable(1 << 62)
    states = _states(start, actions)
    answers = [ask(s) for s in states]
    solves = sum(not s.is_over for s in states)
    if any(a is None for a in answers):
        return TurningPoint("unproven", None, solves)
    if answers[-1]:
        return TurningPoint("won" if states[-1].is_over else "winnable", None, solves)
    if not answers[0]:
        return TurningPoint("never", None, solves)
    return TurningPoint("turned", answers.index(False), solves)
