"""``scoundrel-solve --seeds A:B [--out FILE]``: solve a range of seeded deals.

The work is :class:`scoundrel_solver.batch.Batch` (what a results file
promises is told there); this module adds the progress bar, the summary, and
the line Ctrl-C leaves.
"""

from __future__ import annotations

import argparse

from ..batch import Batch, Limits
from ..summary import summarize
from .options import Interrupted, refuse, table_mib_from, variant_from
from .render import batch_summary, print_summary, progress

__all__ = ["run_batch"]


def run_batch(args: argparse.Namespace) -> int:
    refuse(args, ["fair", "advise"], "to --seeds (a batch solves with the dungeon known)")
    variant = variant_from(args)
    batch = Batch(args.seeds, variant, out=args.out,
                  limits=Limits(args.max_nodes, args.max_seconds),
                  table_mib=table_mib_from(args))
    try:
        with progress(batch.todo_count, f"solving {variant}", args.quiet) as bar:
            for r in batch.run():
                bar.update()
                bar.set_postfix_str(f"seed {r.seed}: {r.best_score}", refresh=False)
    except KeyboardInterrupt:
        if args.out is None:
            raise Interrupted("nothing saved (--out FILE keeps every result)") from None
        raise Interrupted(f"{batch.written} new results saved in {args.out}; the same "
                          "command resumes") from None
    summary = batch_summary(summarize(batch.results()))
    summary.update(variant=variant.name, weapon_rule=variant.weapon_rule, seeds=str(args.seeds),
                   out=args.out)
    print_summary(summary, args.json)
    return 0
