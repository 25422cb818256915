"""What the store says per (variant, weapon rule): counts, the winnable share with a
Wilson 95% interval, and the histogram of best scores.

Everything is computed from SQL counts (the histogram is one GROUP BY), so a
store of 10**9 deals summarises without loading its rows.

A deal whose search stopped early (unproven) is still known winnable when
the search found a winning line; only the undecided ones (no winning line
found, not proven lost) are uncertain. As in Blake and Gent's Klondike study,
they count as lost for the low end of the interval and as won for the high end.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from .store import Store

__all__ = ["Summary", "format_table", "summarize", "wilson"]

Z95 = 1.959963984540054  # two-sided 95% normal quantile
REACH = 30  # the best possible score


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (``(0, 1)`` when n is 0).

    >>> low, high = wilson(5, 10)
    >>> round(low, 4), round(high, 4)
    (0.2366, 0.7634)
    >>> wilson(0, 10)[0], wilson(10, 10)[1]
    (0.0, 1.0)
    """
    if not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # Clamp rounding noise: the exact interval is inside [0, 1] and holds p.
    return max(0.0, min(centre - half, p)), min(1.0, max(centre + half, p))


def _median(histogram: dict[int, int]) -> float:
    """Median of the values a histogram counts (mean of the two middle ones when even).

    >>> _median({1: 1, 5: 2, 9: 1})
    5.0
    >>> _median({1: 1, 2: 1})
    1.5
    """
    n = sum(histogram.values())

    def at(index: int) -> int:  # the value at this 0-based position in sorted order
        seen = 0
        for value in sorted(histogram):
            seen += histogram[value]
            if seen > index:
                return value
        raise ValueError("empty histogram")

    return (at((n - 1) // 2) + at(n // 2)) / 2


@dataclass(frozen=True)
class Summary:
    """One (variant, weapon rule) line of the summary; see ``--json`` in the README."""

    variant: str
    weapon_rule: str
    deals: int
    proven: int
    winnable: int
    winnable_share: float
    winnable_ci95: tuple[float, float]
    reach_30: int
    mean_best: float
    median_best: float
    histogram: dict[int, int]

    def to_json(self) -> dict[str, object]:
        obj = asdict(self)
        obj["winnable_ci95"] = list(self.winnable_ci95)
        obj["histogram"] = {str(k): v for k, v in self.histogram.items()}
        return obj


def summarize(store: Store) -> list[Summary]:
    """One Summary per (variant, weapon rule) in the store, sorted."""
    out = []
    counts = store.conn.execute(
        "SELECT variant, weapon_rule, COUNT(*), SUM(proven), SUM(winnable = 1), "
        f"SUM(winnable IS NULL), SUM(best_score >= {REACH}) FROM results "
        "GROUP BY variant, weapon_rule ORDER BY variant, weapon_rule").fetchall()
    for variant, rule, deals, proven, won, undecided, reach in counts:
        histogram = dict(store.conn.execute(
            "SELECT best_score, COUNT(*) FROM results WHERE variant = ? AND weapon_rule = ? "
            "GROUP BY best_score ORDER BY best_score", (variant, rule)).fetchall())
        mean = sum(score * k for score, k in histogram.items()) / deals
        out.append(Summary(
            variant=variant, weapon_rule=rule, deals=deals, proven=proven, winnable=won,
            winnable_share=won / deals,
            winnable_ci95=(wilson(won, deals)[0], wilson(won + undecided, deals)[1]),
            reach_30=reach, mean_best=mean, median_best=_median(histogram),
            histogram=histogram,
        ))
    return out


def format_table(summaries: list[Summary]) -> str:
    """The summary as a Markdown table (the README shows this one)."""
    lines = [
        "| variant | deals | proven | winnable | winnable share (95% CI) | reach 30 "
        "| mean best | median best |",
        "|---|---:|---:|---:|---|---:|---:|---:|",
    ]
    for s in summaries:
        low, high = s.winnable_ci95
        lines.append(
            f"| {s.variant}/{s.weapon_rule} | {s.deals:,} | {s.proven:,} | {s.winnable:,} "
            f"| {100 * s.winnable_share:.3f}% ({100 * low:.3f}% – {100 * high:.3f}%) "
            f"| {s.reach_30:,} | {s.mean_best:.2f} | {s.median_best:g} |"
        )
    return "\n".join(lines)
