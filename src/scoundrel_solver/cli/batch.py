"""``scoundrel-solve --seeds A:B [--out FILE]``: solve a range of seeded deals.

The work is :class:`scoundrel_solver.runs.batch.Batch` (what a results file
promises is told there); this module adds the progress bar, the summary, and
the line Ctrl-C leaves.
"""

from __future__ import annotations

import argparse
from contextlib import closing

from ..runs.batch import Batch, Limits
from ..runs.jsonl import DiskFull
from ..runs.workers import WorkerDied
from .options import FinishThenStop, Interrupted, refuse, table_mib_from, variant_from
from .render import batch_summary, print_summary, progress

__all__ = ["run_batch"]


def _saved(batch: Batch, out: str | None) -> str:
    if out is None:
        return "nothing saved (--out FILE keeps every result)"
    return f"{batch.written} new results saved in {out}; the same command resumes"


def run_batch(args: argparse.Namespace) -> int:
    """``scoundrel-solve --seeds A:B``: solve a range, print the summary, keep rows in ``--out``."""
    refuse(args, ["fair", "advise"], "to --seeds (a batch solves with the dungeon known)")
    variant = variant_from(args)
    batch = Batch(args.seeds, variant, out=args.out,
                  limits=Limits(args.max_nodes, args.max_seconds),
                  table_mib=table_mib_from(args))
    try:
        with (FinishThenStop() as ctrl_c, closing(batch.run(worker=True)) as results,
              progress(batch.todo_count, f"solving {variant}", args.quiet) as bar):
            for r in results:
                bar.update()
                bar.set_postfix_str(f"seed {r.seed}: {r.best_score}", refresh=False)
                if ctrl_c.pressed:
                    break
        if ctrl_c.pressed:
            raise KeyboardInterrupt
        summary = batch_summary(batch.summary())
    except KeyboardInterrupt:
        raise Interrupted(_saved(batch, args.out)) from None
    except WorkerDied as err:  # exit 1, saying what was saved
        raise WorkerDied(f"{err}; {_saved(batch, args.out)}") from None
    except DiskFull:
        # The file was cut back to its last whole row: free some space and run again.
        raise OSError(f"disk full; {batch.written} results saved in {args.out}; "
                      "the same command resumes once there is room") from None
    summary.update(variant=variant.name, weapon_rule=variant.weapon_rule, seeds=str(args.seeds),
                   out=args.out)
    print_summary(summary, args.json)
    return 0
