"""``scoundrel-census``: exact results for whole seed ranges, on Dask, into SQLite.

    scoundrel-census run --seeds 0:100000 --variant hard --weapon-rule strict
    scoundrel-census summary [--json]
    scoundrel-census export --out census.parquet [--seeds A:B]      # or .csv
    scoundrel-census import results.jsonl [...]        # files of scoundrel-solve --out
    scoundrel-census import data/census.parquet        # or an export: rebuilds a store

Exit codes: 0 success, 1 a failure of the cluster (a chunk that kept killing
its workers), 2 bad input (one line on stderr naming the problem), 130 Ctrl-C
(one line saying how many results were saved).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import scoundrel_core as sc

from ..census.errors import CensusError
from ..census.store import DEFAULT_DB, Store
from ..runs.seeds import parse_seed_range
from ..runs.workers import MAX_WORKERS
from .options import (
    Interrupted,
    Parser,
    add_version_option,
    finished,
    max_seconds,
    run_command,
    worker_count,
)

__all__ = ["main"]

PROG = "scoundrel-census"


def _parser() -> argparse.ArgumentParser:
    p = Parser(prog=PROG, description="Exact results for whole ranges of deals: solved on "
                "Dask, kept in a SQLite store, summarised with 95% intervals.")
    add_version_option(p)
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    db = Parser(add_help=False)
    db.add_argument("--db", default=DEFAULT_DB, help=f"the store (default {DEFAULT_DB})")

    run = sub.add_parser(
        "run", parents=[db], help="solve a seed range into the store",
        description="Solve every deal of a seed range exactly, on a local Dask cluster or "
        "a scheduler's, into the store. Seeds the store settles are skipped, so the same "
        "command resumes a stopped run.")
    run.add_argument("--seeds", required=True, metavar="A:B", help="seeds A..B-1 (or one: N)")
    run.add_argument("--variant", default="classic", help="classic (default), easy or hard")
    run.add_argument("--weapon-rule", default=None, help="strict (default) or equal")
    run.add_argument("--workers", type=worker_count, default=None,
                     help=f"local worker processes (default: one per core; at most {MAX_WORKERS})")
    run.add_argument("--scheduler", metavar="ADDRESS",
                     help="use this Dask scheduler (tcp://host:8786) instead of a local cluster")
    run.add_argument("--max-seconds", type=max_seconds, default=None,
                     help="stop each deal's search after this long (it stays unproven)")
    run.add_argument("--chunk-size", type=int, default=None,
                     help="seeds per task (default 50)")
    run.add_argument("--quiet", action="store_true", help="no progress bar")

    summary = sub.add_parser(
        "summary", parents=[db], help="counts and shares per variant",
        description="Per variant and weapon rule: the deals stored, how many are won, with "
        "95% intervals, and the histogram of best scores.")
    summary.add_argument("--json", action="store_true", help="print a JSON list")

    export = sub.add_parser(
        "export", parents=[db], help="write the rows as Parquet or CSV",
        description="Write every stored result, one row per deal, to a Parquet or CSV "
        "file (the format follows the file's extension).")
    export.add_argument("--out", required=True, metavar="FILE", help="FILE.parquet or FILE.csv")
    export.add_argument("--seeds", metavar="A:B", default=None,
                        help="only the seeds A..B-1 of each variant (default: all)")

    imp = sub.add_parser(
        "import", parents=[db],
        help="load results files of scoundrel-solve --seeds A:B --out FILE, "
        "or a census export (.parquet)",
        description="Load the results files of scoundrel-solve --seeds A:B --out FILE, or a "
        "census export (.parquet), into the store; a result replaces a stored one only "
        "when it is better (proven, or a better line).")
    imp.add_argument("files", nargs="+", metavar="FILE")
    return p


@contextmanager
def _quiet_dask() -> Iterator[None]:
    """Dask logs (worker restarts, shutdown chatter) stay off the terminal during a run."""
    loggers = [logging.getLogger(name) for name in ("distributed", "tornado", "asyncio")]
    levels = [log.level for log in loggers]
    for log in loggers:
        log.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for log, level in zip(loggers, levels, strict=True):
            log.setLevel(level)


def _run(args: argparse.Namespace) -> int:
    from ..census.engine import DEFAULT_CHUNK, MAX_CHUNK, CensusRun
    from ..census.errors import require

    variant = sc.get_variant(args.variant, args.weapon_rule)
    seeds = parse_seed_range(args.seeds)
    if args.workers is not None and args.scheduler is not None:
        raise CensusError("--workers sizes a local cluster; with --scheduler the cluster "
                          "has its own workers")
    chunk = args.chunk_size if args.chunk_size is not None else DEFAULT_CHUNK
    if not 1 <= chunk <= MAX_CHUNK:
        raise CensusError(f"--chunk-size {chunk} must be 1..{MAX_CHUNK:,}")
    require("distributed")  # before the store is made: a missing extra leaves no empty store
    with Store(args.db) as store:
        census = CensusRun(store, seeds, variant.name, variant.weapon_rule,
                           max_seconds=args.max_seconds, workers=args.workers,
                           scheduler=args.scheduler, chunk_size=chunk,
                           progress=not args.quiet and sys.stderr.isatty())
        t0 = time.perf_counter()
        try:
            with _quiet_dask():
                census.execute()
        except KeyboardInterrupt:  # Ctrl-C, SIGTERM or SIGHUP: run_command says which
            raise Interrupted(f"{census.saved} results saved to {args.db} "
                              "(the same command resumes)") from None
        seconds = time.perf_counter() - t0
        proven = store.settled_count(variant.name, variant.weapon_rule, seeds, None)
        stored = store.count(variant.name, variant.weapon_rule, seeds)
    rate = f" ({census.saved / seconds:.1f} deals/s)" if census.saved else ""
    print(f"{variant} {seeds}: {census.saved} results saved in {seconds:.1f} s{rate}, "
          f"{census.skipped} already done; {stored} of {seeds.count} stored, {proven} proven")
    return 0


def _summary(args: argparse.Namespace) -> int:
    from ..census.summary import format_table, summarize

    with Store(args.db, readonly=True) as store:  # a read-only store reads too
        lines = summarize(store)
    if args.json:
        print(json.dumps([s.to_json() for s in lines]))
        return 0
    print(format_table([s.to_json() for s in lines]))
    for s in lines:
        bars = " ".join(f"{score}:{n}" for score, n in sorted(s.totals.scores.items()))
        print(f"\nbest scores {s.variant}/{s.weapon_rule} (score:deals): {bars}")
    return 0


def _export(args: argparse.Namespace) -> int:
    from ..census.export import export
    from ..provenance import provenance

    seeds = None if args.seeds is None else parse_seed_range(args.seeds)
    with Store(args.db, readonly=True) as store:
        n = export(store, args.out, seeds=seeds, provenance=provenance([PROG, *args.argv]))
    print(f"{n} rows written to {args.out}")
    return 0


def _import(args: argparse.Namespace) -> int:
    from ..census.importer import import_file

    with Store(args.db) as store:
        for path in args.files:
            r = import_file(store, path)
            notes = [f"{r.no_seed} without a seed skipped"] if r.no_seed else []
            if r.partial:
                notes.append("an unfinished last line left out")
            print(f"{path}: {r.read} rows read, {r.saved} saved (new or better)"
                  + "".join(f", {note}" for note in notes))
    return 0


def _body(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # the command, for provenance
    command = {"run": _run, "summary": _summary, "export": _export, "import": _import}
    try:
        return command[args.command](args)
    except KeyboardInterrupt:
        raise Interrupted("what was committed before is kept") from None
    except Exception as err:
        # Dask gives up on a task that took several workers down with it.
        if type(err).__name__ == "KilledWorker":
            print(f"{PROG}: error: a chunk of seeds kept killing its workers: {err}",
                  file=sys.stderr)
            return 1
        raise


def main(argv: Sequence[str] | None = None) -> int:
    """``scoundrel-census``: returns the exit code (0; 1 a failing cluster; 2 bad input; 130
    Ctrl-C)."""
    return run_command(PROG, lambda: _body(argv))


if __name__ == "__main__":
    raise SystemExit(finished(main()))
