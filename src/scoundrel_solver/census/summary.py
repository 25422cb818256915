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

from dataclasses import asdict, dataclass

from ..summary import wilson
from .store import SEED_SHIFT, Store

__all__ = ["Summary", "format_table", "summarize", "wilson"]

REACH = 30  # the best possible score


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
    """One (variant, weapon rule) line of the summary; see ``--json`` in docs/census.md."""

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
    first_seed: int = 0
    last_seed: int = 0
    """The lowest and highest seed stored (all seeds between when ``deals`` is their count)."""

    def to_json(self) -> dict[str, object]:
        """The summary line as a JSON object (the histogram's scores as strings)."""
        obj = asdict(self)
        obj["winnable_ci95"] = list(self.winnable_ci95)
        obj["histogram"] = {str(k): v for k, v in self.histogram.items()}
        return obj


def summarize(store: Store) -> list[Summary]:
    """One Summary per (variant, weapon rule) in the store, sorted."""
    out = []
    counts = store.conn.execute(
        "SELECT variant, weapon_rule, COUNT(*), SUM(proven), SUM(winnable = 1), "
        f"SUM(winnable IS NULL), SUM(best_score >= {REACH}), MIN(seed), MAX(seed) FROM results "
        "GROUP BY variant, weapon_rule ORDER BY variant, weapon_rule").fetchall()
    for variant, rule, deals, proven, won, undecided, reach, low_seed, high_seed in counts:
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
            first_seed=low_seed + SEED_SHIFT, last_seed=high_seed + SEED_SHIFT,
        ))
    return out


def format_table(summaries: list[Summary]) -> str:
    """The summary as a Markdown table (docs/census.md shows this one)."""
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
