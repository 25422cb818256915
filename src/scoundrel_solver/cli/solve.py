"""``scoundrel-solve``: the exact best score and an optimal line for a deal.

One deal (``--seed``, ``--deck``, ``--daily``, ``--state``) is solved here;
``--seeds`` hands over to :mod:`.batch`, ``--fair``/``--advise`` to
:mod:`.fair`. Exit codes: 0 success, 2 bad input (one line on stderr naming
the problem), 130 Ctrl-C (one line saying what was saved).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import replace

from ..exact.table import DEFAULT_TABLE_MIB
from ..runs.workers import in_worker
from .options import (
    Parser,
    add_deal_options,
    add_variant_options,
    add_version_option,
    deal_from,
    finished,
    max_nodes,
    max_seconds,
    positive_int,
    refuse,
    run_command,
    table_mib_from,
)

__all__ = ["main"]

PROG = "scoundrel-solve"


def _parser() -> Parser:
    p = Parser(
        prog=PROG,
        description="Best score a player who sees the whole dungeon can reach, proven, "
        "with one line of play that reaches it.",
    )
    add_version_option(p)
    add_deal_options(p, daily_today=True,
                     seeds_help="solve seeds A..B-1 (batch; a summary, or --out for every "
                     "result)")
    p.add_argument("--out", metavar="FILE",
                   help="with --seeds: append each result as a JSON line; a re-run resumes")
    add_variant_options(p, texts_name_theirs=True)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--max-nodes", metavar="N", type=max_nodes, default=None,
                   help="stop after this many nodes (per deal); a search stopped before it "
                   "found any line adds a rescue search of up to as many again (at most "
                   "20,000) to find one, so a result may report up to twice N")
    p.add_argument("--max-seconds", metavar="S", type=max_seconds, default=None,
                   help="stop after this long (per deal)")
    p.add_argument("--table-mib", metavar="MIB", type=positive_int, default=None,
                   help=f"transposition table memory in MiB (default {DEFAULT_TABLE_MIB})")
    p.add_argument("--fair", action="store_true",
                   help="play the deal without seeing the dungeon (fair-play agent)")
    p.add_argument("--advise", metavar="STATE",
                   help="expected value of each legal action in a position, for a fair player")
    p.add_argument("--quiet", action="store_true", help="no progress bar (with --seeds)")
    return p


def _solve_one(args: argparse.Namespace) -> int:
    from ..exact.solve import solve
    from .render import print_solve

    refuse(args, ["out", "quiet"], "without --seeds")
    deal = deal_from(args)
    table_mib = table_mib_from(args)
    # The deal was made once, by deal_from: the solver gets the position, and the
    # result names the seed it was dealt from.
    # In a worker: a search of --max-seconds 1e9 still stops at a Ctrl-C or a SIGTERM.
    solved = in_worker(lambda start: solve(start, max_nodes=args.max_nodes,
                                           max_seconds=args.max_seconds, table_mib=table_mib),
                       deal.start)
    result = replace(solved, seed=deal.seed)
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    print_solve(result, deal.where)
    return 0


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.seeds is not None:
        from .batch import run_batch

        return run_batch(args)
    if args.fair or args.advise is not None:
        from .fair import run_fair

        return run_fair(args)
    return _solve_one(args)


def main(argv: Sequence[str] | None = None) -> int:
    """``scoundrel-solve``: returns the exit code (0, 2 bad input, 130 Ctrl-C)."""
    return run_command(PROG, lambda: _main(argv))


if __name__ == "__main__":
    raise SystemExit(finished(main()))
