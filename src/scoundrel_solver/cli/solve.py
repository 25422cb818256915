"""``scoundrel-solve``: the exact best score and an optimal line for a deal.

Exit codes: 0 success, 2 bad input (one line on stderr naming the problem).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

import scoundrel_core as sc

from ..explain import describe_line
from ..solve import solve
from ..table import DEFAULT_TABLE_MIB

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="scoundrel-solve",
        description="Best score a player who sees the whole dungeon can reach, proven, "
        "with one line of play that reaches it.",
    )
    src = p.add_mutually_exclusive_group()
    src.add_argument("--seed", help="seeded deal (integer 0..2**64-1)")
    src.add_argument("--deck", help='explicit order, top first: "KS 7D 5H 9C ..." (all 44 cards)')
    src.add_argument("--daily", metavar="YYYY-MM-DD", help="the daily dungeon of that date")
    src.add_argument("--state", help="a position in the text form of State.to_text()")
    src.add_argument("--seeds", metavar="A:B",
                     help="solve seeds A..B-1 (batch; a summary, or --out for every result)")
    p.add_argument("--out", metavar="FILE",
                   help="with --seeds: append each result as a JSON line; a re-run resumes")
    p.add_argument("--variant", default="classic", help="classic (default), easy or hard")
    p.add_argument("--weapon-rule", default=None, help="strict (default) or equal")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--max-nodes", type=int, default=None, help="stop after this many nodes")
    p.add_argument("--max-seconds", type=float, default=None, help="stop after this long")
    p.add_argument("--table-mib", type=int, default=DEFAULT_TABLE_MIB,
                   help=f"transposition table memory in MiB (default {DEFAULT_TABLE_MIB})")
    p.add_argument("--fair", action="store_true",
                   help="play the deal without seeing the dungeon (fair-play agent)")
    p.add_argument("--advise", metavar="STATE",
                   help="with --fair: expected value of each legal action in a position")
    return p


def _fail(msg: str) -> int:
    print(f"scoundrel-solve: error: {msg}", file=sys.stderr)
    return 2


def _seed(text: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        raise sc.SeedError(f"seed {text!r} is not an integer") from None
    return value


def _batch(args: argparse.Namespace) -> int:
    from ..batch import parse_seeds, read_results, solve_seeds, summarize

    variant = sc.get_variant(args.variant, args.weapon_rule)
    seeds = parse_seeds(args.seeds)
    results = solve_seeds(seeds, variant=variant.name, weapon_rule=variant.weapon_rule,
                          out=args.out, max_seconds=args.max_seconds, table_mib=args.table_mib)
    rows = [r.to_json() for r in results]
    if args.out is not None:
        # Summarise the whole range, including seeds solved by an earlier run.
        rows = [row for row in read_results(args.out)
                if row["variant"] == variant.name and row["weapon_rule"] == variant.weapon_rule
                and row["seed"] in seeds]
    summary = summarize(rows)
    summary.update(variant=variant.name, weapon_rule=variant.weapon_rule, seeds=args.seeds,
                   out=args.out)
    if args.json:
        print(json.dumps(summary))
    else:
        for key, value in summary.items():
            print(f"{key}: {value}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.seeds is not None:
            return _batch(args)
        if args.out is not None:
            raise ValueError("--out goes with --seeds")
        if args.fair or args.advise:
            from .fair import run_fair

            return run_fair(args)
        variant = sc.get_variant(args.variant, args.weapon_rule)
        seed: int | None = None
        if args.state is not None:
            game: sc.State | str | int = sc.parse_state(args.state)
        elif args.deck is not None:
            game = args.deck
            sc.parse_deck(args.deck)
        elif args.daily is not None:
            seed = sc.daily_seed(args.daily)
            game = seed
        else:
            seed = _seed(args.seed if args.seed is not None else "0")
            game = seed
        if isinstance(game, int):
            sc.deal(game)  # validates the seed before any compile wait
        if args.max_nodes is not None and args.max_nodes < 1:
            raise ValueError(f"--max-nodes {args.max_nodes} must be positive")
        if args.max_seconds is not None and not args.max_seconds > 0:
            raise ValueError(f"--max-seconds {args.max_seconds} must be positive")
        result = solve(game, variant=variant.name, weapon_rule=variant.weapon_rule,
                       max_nodes=args.max_nodes, max_seconds=args.max_seconds,
                       table_mib=args.table_mib)
    except ValueError as err:
        return _fail(str(err))
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    start = sc.parse_state(result.start)
    where = f"seed {result.seed}" if result.seed is not None else "given deck"
    if args.daily:
        where = f"daily dungeon {args.daily} (seed {result.seed})"
    print(f"Deal ({where}, {result.variant}/{result.weapon_rule}), top first:")
    print("  " + " ".join(result.deck))
    outcome = "won" if result.best_score > 0 else "lost"
    if result.proven:
        print(f"Best score: {result.best_score} ({outcome}), proven optimal "
              f"({result.nodes:,} nodes, {result.seconds:.3f} s)")
    else:
        print(f"Best score found: {result.best_score} ({outcome}), NOT proven: the search "
              f"stopped at {result.stopped_by}; the optimum is at most {result.upper_bound} "
              f"({result.nodes:,} nodes, {result.seconds:.3f} s)")
    print()
    for line in describe_line(start, result.line):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
