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
import sys
import time
from collections.abc import Sequence

from tqdm import tqdm

import scoundrel_core as sc
from scoundrel_solver import SolveResult, solve
from scoundrel_solver.runs.seeds import SeedRange, parse_seed_range
from scoundrel_solver.runs.summary import Outcome, Summary, summarize

__all__ = ["extra_info", "solve_timed", "table_header", "table_row"]


def solve_timed(
    seed: int,
    variant: str,
    weapon_rule: str = "strict",
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> tuple[SolveResult, Outcome]:
    """Solve one seeded deal; the outcome carries the wall time around the whole call."""
    t0 = time.perf_counter()
    r = solve(seed, variant=variant, weapon_rule=weapon_rule, max_nodes=max_nodes,
              max_seconds=max_seconds)
    wall = time.perf_counter() - t0
    return r, Outcome(score=r.best_score, won=r.best_score > 0, seconds=wall, proven=r.proven,
                      nodes=r.nodes)


def extra_info(s: Summary) -> dict[str, float | int]:
    """The numbers pytest-benchmark records with each run."""
    return {
        "deals": s.deals,
        "proven_share": round(s.proven_share, 4),
        "median_seconds_per_deal": round(s.median_seconds, 6),
        "p90_seconds_per_deal": round(s.p90_seconds, 6),
        "worst_seconds_per_deal": round(s.worst_seconds, 6),
        "mean_nodes": round(s.mean_nodes, 1),
        "nodes_per_second": round(s.nodes_per_second),
        "best_score_30": s.thirties,
        "wins": s.wins,
        "losses": s.losses,
    }


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


def table_row(label: str, seeds: SeedRange, s: Summary, rss_mib: float) -> str:
    cells = (
        label,
        str(seeds),
        str(s.deals),
        f"{100 * s.proven_share:.1f}%",
        f"{1000 * s.median_seconds:.1f}",
        f"{1000 * s.p90_seconds:.1f}",
        f"{1000 * s.worst_seconds:.1f}",
        f"{s.mean_nodes:,.0f}",
        f"{s.nodes_per_second:,.0f}",
        f"{rss_mib:.0f}",
        str(s.thirties),
        str(s.wins),
        str(s.losses),
    )
    return "| " + " | ".join(cells) + " |"


def _seeds_arg(text: str) -> SeedRange:
    try:
        return parse_seed_range(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--variant", choices=sc.FLEE_RULES, default="classic")
    ap.add_argument("--weapon-rule", choices=sc.WEAPON_RULES, default="strict")
    ap.add_argument("--seeds", type=_seeds_arg, default=SeedRange(0, 100),
                    help="START:STOP (0:100)")
    ap.add_argument("--max-nodes", type=int, default=None, help="node limit per deal")
    ap.add_argument("--max-seconds", type=float, default=None, help="time limit per deal")
    ap.add_argument("--no-header", action="store_true", help="print the row only")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    args = ap.parse_args(argv)
    seeds: SeedRange = args.seeds
    label = f"{args.variant}/{args.weapon_rule}"

    # Compile the kernels before the clock starts: a tiny deal of the same variant.
    warm = sc.new_game(
        deck="5C 9D 3H QS 2S 7H", partial=True, variant=args.variant, weapon_rule=args.weapon_rule
    )
    solve(warm, variant=args.variant, weapon_rule=args.weapon_rule)

    outcomes: list[Outcome] = []
    with tqdm(total=seeds.count, desc=label, file=sys.stderr, unit="deal",
              disable=args.quiet or not sys.stderr.isatty()) as bar:
        for seed in seeds:
            r, o = solve_timed(seed, args.variant, args.weapon_rule, args.max_nodes,
                               args.max_seconds)
            outcomes.append(o)
            bar.update()
            bar.set_postfix_str(f"seed {seed}: {r.best_score}{'' if r.proven else '?'}",
                                refresh=False)

    s = summarize(outcomes)
    scores = ", ".join(f"{score}: {n}" for score, n in sorted(s.scores.items(), reverse=True))
    print(f"best scores of {label} seeds {seeds}: {scores}", file=sys.stderr)
    if not args.no_header:
        print(table_header())
    print(table_row(label, seeds, s, peak_rss_mib()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
