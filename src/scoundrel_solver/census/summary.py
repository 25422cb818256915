"""What the store says per (variant, weapon rule): counts, the winnable share with its
95% interval, and the histogram of best scores.

Each line is the project's one :class:`~scoundrel_solver.runs.summary.Summary`
(a deal the search wins is a winnable deal), with what only the census has:
the variant and the seeds the store spans. Everything is computed from SQL
counts (the histogram is one GROUP BY), so a store of 10**9 deals summarises
without loading its rows.

A deal whose search stopped early (unproven) is still known winnable when
the search found a winning line; only the undecided ones (no winning line
found, not proven lost) are uncertain, and the interval counts them both ways
(:func:`~scoundrel_solver.runs.summary.win_interval`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..runs.summary import Summary
from .store import SEED_SHIFT, Store

__all__ = ["CensusLine", "format_table", "summarize"]


@dataclass(frozen=True)
class CensusLine:
    """One (variant, weapon rule) line of the summary: the store's counts, and the lowest
    and highest seed stored (all seeds between when ``totals.deals`` is their count)."""

    variant: str
    weapon_rule: str
    totals: Summary
    first_seed: int = 0
    last_seed: int = 0

    def to_json(self) -> dict[str, object]:
        """The line as ``summary --json`` writes it (docs/census.md): the census's words
        for the summary's fields, the histogram's scores as strings."""
        t = self.totals
        return {
            "variant": self.variant, "weapon_rule": self.weapon_rule,
            "deals": t.deals, "proven": t.proven, "winnable": t.wins,
            "winnable_share": t.win_rate, "winnable_ci95": list(t.win_rate_ci95),
            "reach_30": t.thirties, "mean_best": t.mean_score,
            "median_best": float(t.median_score),
            "histogram": {str(k): v for k, v in sorted(t.scores.items())},
            "first_seed": self.first_seed, "last_seed": self.last_seed,
        }


def summarize(store: Store) -> list[CensusLine]:
    """One line per (variant, weapon rule) in the store, sorted.

    The rows are checked first (:meth:`Store.check_rows`: one SQL pass), and every query
    runs inside the store's guard, so a damaged or hand-edited store is one line naming
    it, never a traceback or a count of impossible rows."""
    store.check_rows()
    with store.guarded():
        return _summarize(store)


def _summarize(store: Store) -> list[CensusLine]:
    out = []
    counts = store.conn.execute(
        "SELECT variant, weapon_rule, COUNT(*), SUM(proven), SUM(winnable = 1), "
        "SUM(winnable IS NULL), SUM(nodes), MIN(seed), MAX(seed) FROM results "
        "GROUP BY variant, weapon_rule ORDER BY variant, weapon_rule").fetchall()
    for variant, rule, deals, proven, won, undecided, nodes, low_seed, high_seed in counts:
        histogram = Counter(dict(store.conn.execute(
            "SELECT best_score, COUNT(*) FROM results WHERE variant = ? AND weapon_rule = ? "
            "GROUP BY best_score ORDER BY best_score", (variant, rule)).fetchall()))
        # the store keeps no per-deal times here: counts only (seconds empty)
        totals = Summary(deals=deals, wins=won, proven=proven, scores=histogram, seconds=(),
                         nodes=nodes, undecided=undecided)
        out.append(CensusLine(variant, rule, totals, first_seed=low_seed + SEED_SHIFT,
                              last_seed=high_seed + SEED_SHIFT))
    return out


def format_table(lines: Sequence[Mapping[str, Any]]) -> str:
    """The summary's JSON lines (:meth:`CensusLine.to_json`, or ``summary --json`` read
    back) as a Markdown table (docs/census.md shows this one)."""
    rows = [
        "| variant | deals | proven | winnable | winnable share (95% CI) | reach 30 "
        "| mean best | median best |",
        "|---|---:|---:|---:|---|---:|---:|---:|",
    ]
    for s in lines:
        low, high = s["winnable_ci95"]
        rows.append(
            f"| {s['variant']}/{s['weapon_rule']} | {s['deals']:,} | {s['proven']:,} "
            f"| {s['winnable']:,} | {100 * s['winnable_share']:.3f}% "
            f"({100 * low:.3f}% – {100 * high:.3f}%) "
            f"| {s['reach_30']:,} | {s['mean_best']:.2f} | {s['median_best']:g} |"
        )
    return "\n".join(rows)
