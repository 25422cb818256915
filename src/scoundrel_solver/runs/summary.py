"""What many games add up to: wins with a confidence interval, scores, time and work.

One summary serves every command that plays or solves many deals (a solver
batch, an agent evaluation, the benchmark table, the census store): each
reports the fields it needs from the same :class:`Summary`. Scores are kept as
a histogram, so a summary of 10**9 deals holds about 200 numbers.

>>> s = summarize([Outcome(score=14, won=True, seconds=0.5, nodes=100),
...                Outcome(score=-40, won=False, seconds=1.5, nodes=300)])
>>> s.deals, s.wins, s.mean_score, s.median_seconds, s.mean_nodes
(2, 1, -13.0, 1.0, 200.0)
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["Outcome", "Summary", "Tally", "percentile", "summarize", "wilson", "win_interval"]

Z95 = 1.959963984540054  # the standard normal quantile of 0.975


@dataclass(frozen=True, slots=True)
class Outcome:
    """One deal as a summary counts it.

    ``proven`` is false for a solve a limit stopped (such a deal not ``won`` is
    undecided: no winning line found, none ruled out); ``decisions`` and
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


def win_interval(wins: int, games: int, undecided: int = 0) -> tuple[float, float]:
    """The 95% interval of a win rate when ``undecided`` more games may be wins or losses.

    They count as lost for the low end and as won for the high end (as in Blake
    and Gent's Klondike study); with none undecided, this is :func:`wilson`.

    >>> win_interval(4, 9, undecided=2) == (wilson(4, 9)[0], wilson(6, 9)[1])
    True
    """
    return (wilson(wins, games)[0], wilson(wins + undecided, games)[1])


def _is_sorted(values: Sequence[float]) -> bool:
    return all(values[i] <= values[i + 1] for i in range(len(values) - 1))


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile: the smallest value with at least ``share`` of them at or below.

    >>> percentile([5, 1, 4, 2, 3], 0.9), percentile([5, 1, 4, 2, 3], 0.5)
    (5, 3)
    """
    if not values:
        raise ValueError("percentile of no values")
    ordered = values if _is_sorted(values) else sorted(values)
    rank = max(1, math.ceil(len(ordered) * share - 1e-9))  # 1e-9: 0.9 * n may land a hair above
    return ordered[min(rank, len(ordered)) - 1]


@dataclass(frozen=True)
class Summary:
    """Totals over a set of outcomes; every average of no deals is 0.

    ``scores`` counts the deals of each score. ``seconds`` (sorted) holds each
    deal's time, and is empty when only counts are known (the census store):
    then the time averages are 0 too. :func:`summarize` gives it as an
    ``array('d')``: 8 bytes per deal.
    """

    deals: int
    wins: int
    proven: int
    scores: Counter[int]
    seconds: Sequence[float]  # sorted
    nodes: int
    decisions: int = 0
    exact_decisions: int = 0
    undecided: int = 0
    """Deals neither won nor proven lost (a search a limit stopped without a winning line)."""

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
        """The win rate's 95% interval, the undecided deals counted both ways."""
        return win_interval(self.wins, self.deals, self.undecided)

    @property
    def proven_share(self) -> float:
        return self.proven / self.deals if self.deals else 0.0

    @property
    def mean_score(self) -> float:
        if not self.deals:
            return 0.0
        return sum(score * n for score, n in self.scores.items()) / self.deals

    @property
    def median_score(self) -> float:
        """The middle score, or the mean of the two middle ones (as ``statistics.median``).

        >>> summarize(Outcome(s, s > 0, 0.0) for s in (9, 1, 5, 5)).median_score
        5.0
        """
        if not self.deals:
            return 0.0
        high = self._score_at(self.deals // 2)
        return high if self.deals % 2 else (self._score_at(self.deals // 2 - 1) + high) / 2

    def _score_at(self, index: int) -> int:
        """The score at this 0-based position of the deals sorted by score."""
        seen = 0
        for score in sorted(self.scores):
            seen += self.scores[score]
            if seen > index:
                return score
        raise IndexError(f"no deal at position {index} of {self.deals}")

    @property
    def total_seconds(self) -> float:
        return math.fsum(self.seconds)

    @property
    def median_seconds(self) -> float:
        # The sequence is sorted already: the middle of it, not statistics.median's copy.
        n = len(self.seconds)
        if not n:
            return 0.0
        mid = n // 2
        return self.seconds[mid] if n % 2 else (self.seconds[mid - 1] + self.seconds[mid]) / 2

    @property
    def p90_seconds(self) -> float:
        return percentile(self.seconds, 0.9) if self.seconds else 0.0

    @property
    def worst_seconds(self) -> float:
        return self.seconds[-1] if self.seconds else 0.0

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


class Tally:
    """Outcomes added up as they come: counts, the histogram of scores, and each deal's
    time as 8 bytes (for the median and the 90th percentile), so a long run's summary
    costs 8 bytes per deal, not an object per deal."""

    def __init__(self) -> None:
        self.deals = self.wins = self.proven = self.nodes = 0
        self.decisions = self.exact = self.undecided = 0
        self.scores: Counter[int] = Counter()
        self.seconds = array("d")

    def add(self, o: Outcome) -> None:
        """Count one outcome."""
        self.deals += 1
        self.wins += o.won
        self.proven += o.proven
        self.undecided += not (o.proven or o.won)
        self.nodes += o.nodes
        self.decisions += o.decisions
        self.exact += o.exact_decisions
        self.scores[o.score] += 1
        self.seconds.append(o.seconds)

    def summary(self) -> Summary:
        """The totals so far."""
        # Sorted by numpy in place of 8-byte values: no float object per deal.
        ordered = array("d", np.sort(np.frombuffer(self.seconds, dtype=np.float64)).tobytes())
        return Summary(self.deals, self.wins, self.proven, Counter(self.scores),
                       ordered, self.nodes, self.decisions, self.exact, self.undecided)


def summarize(outcomes: Iterable[Outcome]) -> Summary:
    """Add up outcomes (one pass; only scores and times are kept)."""
    tally = Tally()
    for o in outcomes:
        tally.add(o)
    return tally.summary()
