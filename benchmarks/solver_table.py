"""Solve a range of seeded deals and print one markdown table row of solver numbers.

    python benchmarks/solver_table.py --variant hard --seeds 0:1000
    python benchmarks/solver_table.py --variant classic --seeds 0:200 --no-header >> table.md

Columns: deals, share proven, median / p90 / worst wall milliseconds per deal,
mean nodes per deal, nodes per second (all nodes over all wall time), the
peak resident memory of the process, and the best scores: how many deals
reach 30, are won (score > 0) and lost. The full score distribution and
progress go to stderr, the table to stdout, so rows from several runs can be
appended to one file.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import scoundrel_core as sc
from scoundrel_solver import SolveResult, solve
from scoundrel_solver.batch import parse_seeds

__all__ = ["Summary", "parse_seeds", "percentile", "summarize", "table_header", "table_row"]


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile: the smallest value with at least ``share`` of them at or below."""
    if not values:
        raise ValueError("percentile of no values")
    ordered = sorted(values)
    rank = max(1, math.ceil(len(ordered) * share - 1e-9))  # 1e-9: 0.9 * n may land a hair above
    return ordered[min(rank, len(ordered)) - 1]


@dataclass(frozen=True)
class Summary:
    deals: int
    proven_share: float
    median_s: float
    p90_s: float
    worst_s: float
    mean_nodes: float
    nodes_per_s: float
    scores: Counter[int]

    @property
    def thirties(self) -> int:
        return self.scores[30]

    @property
    def wins(self) -> int:
        return sum(n for s, n in self.scores.items() if s > 0)

    @property
    def losses(self) -> int:
        return sum(n for s, n in self.scores.items() if s <= 0)

    def extra_info(self) -> dict[str, float | int]:
        """The numbers pytest-benchmark records with each run."""
        return {
            "deals": self.deals,
            "proven_share": round(self.proven_share, 4),
            "median_seconds_per_deal": round(self.median_s, 6),
            "p90_seconds_per_deal": round(self.p90_s, 6),
            "worst_seconds_per_deal": round(self.worst_s, 6),
            "mean_nodes": round(self.mean_nodes, 1),
            "nodes_per_second": round(self.nodes_per_s),
            "best_score_30": self.thirties,
            "wins": self.wins,
            "losses": self.losses,
        }


def summarize(results: Sequence[SolveResult], wall_seconds: Sequence[float]) -> Summary:
    """Statistics over a set of solves; ``wall_seconds[i]`` is the time ``results[i]`` took."""
    if not results or len(results) != len(wall_seconds):
        raise ValueError("need one wall time per result, and at least one result")
    total_s = sum(wall_seconds)
    total_nodes = sum(r.nodes for r in results)
    return Summary(
        deals=len(results),
        proven_share=sum(r.proven for r in results) / len(results),
        median_s=percentile(wall_seconds, 0.5),
        p90_s=percentile(wall_seconds, 0.9),
        worst_s=max(wall_seconds),
        mean_nodes=total_nodes / len(results),
        nodes_per_s=total_nodes / total_s if total_s > 0 else float("nan"),
        scores=Counter(r.best_score for r in results),
    )


def peak_rss_mib() -> float:
    """Peak resident set size of this process in MiB (NaN where unknown)."""
    try:
        import resource
    except ImportError:  # Windows
        return float("nan")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10  # bytes vs KiB


_COLUMNS = (
    "variant", "seeds", "deals", "proven", "median ms", "p90 ms", "worst ms",
    "mean nodes", "nodes/s", "peak RSS MiB", "30s", "wins", "losses",
)  # fmt: skip


def table_header() -> str:
    rule = "|".join(":---" if i < 2 else "---:" for i in range(len(_COLUMNS)))
    return "| " + " | ".join(_COLUMNS) + " |\n|" + rule + "|"


def table_row(label: str, seeds: range, s: Summary, rss_mib: float) -> str:
    cells = (
        label,
        f"{seeds.start}:{seeds.stop}",
        str(s.deals),
        f"{100 * s.proven_share:.1f}%",
        f"{1000 * s.median_s:.1f}",
        f"{1000 * s.p90_s:.1f}",
        f"{1000 * s.worst_s:.1f}",
        f"{s.mean_nodes:,.0f}",
        f"{s.nodes_per_s:,.0f}",
        f"{rss_mib:.0f}",
        str(s.thirties),
        str(s.wins),
        str(s.losses),
    )
    return "| " + " | ".join(cells) + " |"


def _seeds_arg(text: str) -> range:
    try:
        return parse_seeds(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--variant", choices=sc.FLEE_RULES, default="classic")
    ap.add_argument("--weapon-rule", choices=sc.WEAPON_RULES, default="strict")
    ap.add_argument("--seeds", type=_seeds_arg, default=range(100), help="START:STOP (0:100)")
    ap.add_argument("--max-nodes", type=int, default=None, help="node limit per deal")
    ap.add_argument("--max-seconds", type=float, default=None, help="time limit per deal")
    ap.add_argument("--no-header", action="store_true", help="print the row only")
    args = ap.parse_args(argv)
    seeds: range = args.seeds
    label = f"{args.variant}/{args.weapon_rule}"

    # Compile the kernels before the clock starts: a tiny deal of the same variant.
    warm = sc.new_game(
        deck="5C 9D 3H QS 2S 7H", partial=True, variant=args.variant, weapon_rule=args.weapon_rule
    )
    solve(warm, variant=args.variant, weapon_rule=args.weapon_rule)

    results: list[SolveResult] = []
    walls: list[float] = []
    began = last_note = time.perf_counter()
    for i, seed in enumerate(seeds, 1):
        t0 = time.perf_counter()
        r = solve(
            seed,
            variant=args.variant,
            weapon_rule=args.weapon_rule,
            max_nodes=args.max_nodes,
            max_seconds=args.max_seconds,
        )
        now = time.perf_counter()
        results.append(r)
        walls.append(now - t0)
        if now - last_note >= 2.0 or now - t0 >= 1.0 or i == len(seeds):
            last_note = now
            print(
                f"[{i}/{len(seeds)}] {label} seed {seed}: score {r.best_score}"
                f"{'' if r.proven else ' (not proven)'}, {now - t0:.2f} s, {r.nodes:,} nodes;"
                f" {now - began:.0f} s so far",
                file=sys.stderr,
                flush=True,
            )

    s = summarize(results, walls)
    scores = ", ".join(f"{score}: {n}" for score, n in sorted(s.scores.items(), reverse=True))
    print(f"best scores of {label} seeds {seeds.start}:{seeds.stop}: {scores}", file=sys.stderr)
    if not args.no_header:
        print(table_header())
    print(table_row(label, seeds, s, peak_rss_mib()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
