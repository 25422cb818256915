"""``scoundrel-bound``: a proven upper bound on fair play, over a range of seeded deals.

    scoundrel-bound --seeds A:B [--variant classic] [--weapon-rule strict] [--steps K]
                    [--value one-room|zero] [--max-nodes N] [--out FILE] [--quiet]
    scoundrel-bound --summary FILE [--json]

For each deal, the best over every line of play, with the dungeon seen, of
``1{won}`` minus the penalties ``V(I') - E[V(I') | I, a]`` of the deal and of
the first ``--steps`` chance steps after it (``scoundrel_solver.bound.deal``);
the mean over deals bounds the win rate of every fair player (docs/bound.md).
The report gives that mean with a one-sided 95% upper limit (from the sample
variance) beside the share of the same deals won with the dungeon seen.

``--out FILE`` appends each finished deal to FILE as it ends
(:mod:`scoundrel_solver.bound.rows`), each row naming the versions of the bound,
the exact solver and the agent that proved it; the same command resumes, and
the report counts the deals from the file too. A file holding rows of other
versions is refused (exit 2, naming it). ``--summary FILE`` reports a file's
rows without solving anything.

Exit codes: 0 success, 1 the system failed (a full disk), 2 bad input (one
line on stderr), 130 Ctrl-C and 128 + the signal for SIGTERM/SIGHUP (one line
saying what was saved: with ``--out``, every finished deal).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import scoundrel_core as sc

from ..bound.deal import MAX_STEPS, DealBound, deal_bound, opening_node
from ..bound.rows import (
    BoundSummary,
    bound_row,
    finished_deals,
    read_bound_rows,
    settings_of,
    summarize_bound,
)
from ..bound.values import VALUE_NAMES, charges_for
from ..runs.jsonl import DiskFull, LineAppender
from ..runs.seeds import SeedRange
from .options import (
    Interrupted,
    Parser,
    UsageError,
    add_seeds_option,
    add_variant_options,
    add_version_option,
    non_negative_int,
    positive_int,
    run_command,
    variant_from,
)

__all__ = ["main"]

PROG = "scoundrel-bound"
MAX_NODES_LIMIT = 10**9
"""The largest ``--max-nodes`` taken (minutes of search per sub-solve)."""
DEFAULT_MAX_NODES = 2_000_000
"""The exact sub-solves' default node limit: a solve cut short counts as a win."""


def build_parser() -> Parser:
    p = Parser(prog=PROG, description="A proven upper bound on the win rate of any fair "
               "(no peeking) Scoundrel player, over seeded deals.")
    add_version_option(p)
    add_seeds_option(p, "seed range A:B (B excluded)")
    add_variant_options(p)
    p.add_argument("--steps", metavar="K", type=non_negative_int, default=1,
                   help=f"chance steps penalised after the deal, 0..{MAX_STEPS} (default 1)")
    p.add_argument("--value", default="one-room", choices=VALUE_NAMES,
                   help="V of the penalties: one-room (default) or zero")
    p.add_argument("--max-nodes", metavar="N", type=positive_int, default=DEFAULT_MAX_NODES,
                   help="node limit of each exact sub-solve; one cut short counts as won "
                   f"(default {DEFAULT_MAX_NODES:,})")
    p.add_argument("--out", metavar="FILE",
                   help="append each finished deal to FILE (JSON lines); the same command "
                   "resumes, solving only the deals the file does not hold")
    p.add_argument("--summary", metavar="FILE",
                   help="report the rows of FILE (written by --out) and solve nothing")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def _report(summaries: Sequence[BoundSummary], as_json: bool) -> None:
    if as_json:
        print(json.dumps([s.as_dict() for s in summaries], allow_nan=False))
        return
    for s in summaries:
        upper = "n/a (one deal)" if s.upper is None else f"{100 * s.upper:.2f}%"
        lo, hi = s.perfect_interval
        print(f"{s.variant}/{s.weapon_rule}, V = {s.value}, {s.steps} steps penalised: "
              f"{s.deals} deals")
        print(f"  bound on fair play   {100 * s.mean:.2f}%  (one-sided 95% upper limit "
              f"{upper}; sd of a deal {s.sd:.3f})")
        print(f"  perfect information  {100 * s.perfect_share:.2f}%  (95% interval "
              f"{100 * lo:.2f}-{100 * hi:.2f}%)")
        print(f"  cost                 {s.seconds_per_deal:.2f} s per deal; "
              f"{s.unproven} sub-solves cut short, counted won")


def _main(argv: Sequence[str] | None) -> int:
    from .render import progress

    args = build_parser().parse_args(argv)
    if args.summary is not None:
        given = [o for o, v in (("--seeds", args.seeds), ("--out", args.out)) if v is not None]
        if given:
            raise UsageError(f"--summary reads a file and solves nothing: drop {given[0]}")
        summaries = summarize_bound(read_bound_rows(args.summary))
        if not summaries:
            raise UsageError(f"no rows in {args.summary}")
        _report(summaries, args.json)
        return 0
    if args.seeds is None:
        raise UsageError("give --seeds A:B (or --summary FILE)")
    if args.steps > MAX_STEPS:
        raise UsageError(f"--steps {args.steps}: at most {MAX_STEPS}")
    if args.max_nodes > MAX_NODES_LIMIT:
        raise UsageError(f"--max-nodes {args.max_nodes}: at most {MAX_NODES_LIMIT:,}")
    seeds: SeedRange = args.seeds
    v = variant_from(args)
    if v.may_flee_twice:
        raise UsageError(f"variant {v}: a room fled again and again makes cycles of flees, "
                         "which the bound's search does not handle")
    settings = settings_of(v, args.steps, args.value, args.max_nodes)
    done: set[int] = set()
    sink: LineAppender | None = None
    if args.out is not None:
        done = finished_deals(Path(args.out), settings, seeds)
        sink = LineAppender(args.out)
    rows: list[dict[str, Any]] = []
    if args.out is not None:
        rows = [r for r in read_bound_rows(args.out)
                if r["seed"] in done and all(r.get(k) == x for k, x in settings.items())]

    def saved() -> str:
        if sink is None:
            return f"nothing saved (--out FILE keeps every deal); {len(rows)} were done"
        return f"{sink.appended} new deals saved in {args.out}; the same command resumes"

    opening_mean: float | None = None
    try:
        with progress(seeds.count, f"bound {v}", args.quiet, "deal") as bar:
            bar.update(len(done))
            for seed in seeds:
                if seed in done:
                    continue
                s = sc.new_game(seed=seed, variant=v)
                charges = charges_for(args.value)
                if opening_mean is None:  # every full deck has the same first deal
                    opening_mean = charges.mean(opening_node(s))
                deal: DealBound = deal_bound(s, charges, args.steps, opening_mean,
                                             args.max_nodes)
                row = bound_row(settings, seed, deal)
                if sink is not None:
                    sink.append(json.dumps(row, allow_nan=False))
                rows.append(row)
                bar.update()
    except KeyboardInterrupt:
        raise Interrupted(saved()) from None
    except DiskFull:
        raise OSError(f"disk full; {saved()} once there is room") from None
    finally:
        if sink is not None:
            sink.close()
    _report(summarize_bound(rows), args.json)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``scoundrel-bound``: returns the exit code (0, 2 bad input, 130 Ctrl-C)."""
    return run_command(PROG, lambda: _main(argv))


if __name__ == "__main__":
    raise SystemExit(main())
