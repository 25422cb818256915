"""What many games add up to: wins with a confidence interval, scores, time and work.

One summary serves every command that plays or solves many deals (a solver
batch, an agent evaluation, the benchmark table): each reports the fields it
needs from the same :class:`Summary`.

>>> s = summarize([Outcome(score=14, won=True, seconds=0.5, nodes=100),
...                Outcome(score=-40, won=False, seconds=1.5, nodes=300)])
>>> s.deals, s.wins, s.mean_score, s.median_seconds, s.mean_nodes
(2, 1, -13.0, 1.0, 200.0)
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Outcome", "Summary", "percentile", "summarize", "wilson"]

Z95 = 1.959963984540054  # the standard normal quantile of 0.975


@dataclass(frozen=True, slots=True)
class Outcome:
    """One deal as a summary counts it.

    ``proven`` is false for a solve a limit stopped; ``decisions`` and
    ``exact_decisions`` count an agent's choices and those it searched exactly.
    """

    score: int
    won: bool
    seconds: float
    proven: bool = True
    nodes: int = 0
    decisions: int = 0
    exact_decisions: int = 0


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% by default).

    >>> [round(x, 4) for x in wilson(20, 100)]
    [0.1334, 0.2888]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    den = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / den
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / den
    lo = 0.0 if wins == 0 else max(0.0, centre - half)
    hi = 1.0 if wins == games else min(1.0, centre + half)
    return (lo, hi)


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile: the smallest value with at least ``share`` of them at or below.

    >>> percentile([5, 1, 4, 2, 3], 0.9), percentile([5, 1, 4, 2, 3], 0.5)
    (5, 3)
    """
    if not values:
        raise ValueError("percentile of no values")
    ordered = sorted(values)
    rank = max(1, math.ceil(len(ordered) * share - 1e-9))  # 1e-9: 0.9 * n may land a hair above
    return ordered[min(rank, len(ordered)) - 1]


@dataclass(frozen=True)
class Summary:
    """Totals over a set of outcomes; every average of no deals is 0."""

    deals: int
    wins: int
    proven: int
    scores: Counter[int]
    seconds: tuple[float, ...]  # sorted
    nodes: int
    decisions: int
    exact_decisions: int

    @property
    def losses(self) -> int:
        return self.deals - self.wins

    @property
    def thirties(self) -> int:
        """Deals scoring 30, the most a classic deal can."""
        return self.scores[30]

    @property
    def win_rate(self) -> float:
        return self.wins / self.deals if self.deals else 0.0

    @property
    def win_rate_ci95(self) -> tuple[float, float]:
        return wilson(self.wins, self.deals)

    @property
    def proven_share(self) -> float:
        return self.proven / self.deals if self.deals else 0.0

    @property
    def mean_score(self) -> float:
        return statistics.fmean(self.scores.elements()) if self.deals else 0.0

    @property
    def median_score(self) -> float:
        return statistics.median(self.scores.elements()) if self.deals else 0.0

    @property
    def total_seconds(self) -> float:
        return math.fsum(self.seconds)

    @property
    def median_seconds(self) -> float:
        return statistics.median(self.seconds) if self.deals else 0.0

    @property
    def p90_seconds(self) -> float:
        return percentile(self.seconds, 0.9) if self.deals else 0.0

    @property
    def worst_seconds(self) -> float:
        return self.seconds[-1] if self.deals else 0.0

    @property
    def mean_nodes(self) -> float:
        return self.nodes / self.deals if self.deals else 0.0

    @property
    def nodes_per_second(self) -> float:
        total = self.total_seconds
        return self.nodes / total if total > 0 else math.nan

    @property
    def exact_decision_share(self) -> float:
        return self.exact_decisions / self.decisions if self.decisions else 0.0


def summarize(outcomes: Iterable[Outcome]) -> Summary:
    """Add up outcomes (one pass; only scores and times are kept)."""
    deals = wins = proven = nodes = decisions = exact = 0
    scores: Counter[int] = Counter()
    seconds: list[float] = []
    for o in outcomes:
        deals += 1
        wins += o.won
        proven += o.proven
        nodes += o.nodes
        decisions += o.decisions
        exact += o.exact_decisions
        scores[o.score] += 1
        seconds.append(o.seconds)
    return Summary(deals, wins, proven, scores, tuple(sorted(seconds)), nodes, decisions, exact)
