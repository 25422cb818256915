"""Loading results into a store: files of ``scoundrel-solve --seeds A:B --out FILE``,
or a census's own Parquet export (``scoundrel-census export``), which rebuilds a
store from the published ``data/census.parquet``.

Each line of a results file is one JSON object (``SolveResult.to_json``); rows
without a seed (an explicit deck) are skipped. A Parquet export's rows keep
their own ``solver_version``. The store's rules apply, so importing a file
twice, or a file that overlaps a census run, counts every deal once. A file
still being written may end in half a line: that last line is left out.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

import scoundrel_core as sc

from ..runs.batch import read_numbered_results
from ..runs.jsonl import ResultsFileError, check_regular
from ..runs.result_rows import BadRow, check_row
from .errors import CensusError, require
from .store import COLUMNS, LIMIT_COLUMNS, CensusRow, Store, solver_version

__all__ = ["ImportReport", "import_file"]

BATCH = 10_000
_KEYS = ("seed", "variant", "weapon_rule", "best_score", "upper_bound", "winnable", "proven",
         "nodes", "seconds")


@dataclass
class ImportReport:
    """What one import did: rows read, rows saved (new or better), rows skipped."""

    read: int = 0
    saved: int = 0
    no_seed: int = 0
    partial: int = 0


def _row(obj: Any, where: str, version: str) -> CensusRow:
    try:  # the one validator every reader of results shares
        check_row(obj, where)
    except BadRow as err:
        raise CensusError(str(err)) from None
    if not isinstance(obj, dict):
        raise CensusError(f"{where}: not a solver result (expected a JSON object)")
    missing = [k for k in _KEYS if k not in obj]
    if missing:
        raise CensusError(f"{where}: not a solver result (missing {', '.join(missing)})")
    try:
        v = sc.get_variant(obj["variant"], obj["weapon_rule"])
        seed = obj["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= sc.MAX_SEED:
            raise ValueError(f"seed {seed!r} is not an integer 0 .. 2**64-1")
        ints = [obj[k] for k in ("best_score", "upper_bound", "nodes")]
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in ints):
            raise ValueError(f"best_score, upper_bound and nodes must be integers, got {ints}")
        winnable = obj["winnable"]
        if winnable is not None and not isinstance(winnable, bool):
            raise ValueError(f"winnable must be true, false or null, got {winnable!r}")
        max_nodes, max_seconds = obj.get("max_nodes"), obj.get("max_seconds")
        if max_nodes is not None and (isinstance(max_nodes, bool)
                                      or not isinstance(max_nodes, int) or max_nodes < 1):
            raise ValueError(f"max_nodes must be a positive integer or null, got {max_nodes!r}")
        if max_seconds is not None and (isinstance(max_seconds, bool)
                                        or not isinstance(max_seconds, (int, float))
                                        or not max_seconds > 0):
            raise ValueError(f"max_seconds must be a positive number or null, "
                             f"got {max_seconds!r}")
        return CensusRow(v.name, v.weapon_rule, seed, ints[0], ints[1], bool(obj["proven"]),
                         winnable, ints[2], float(obj["seconds"]),
                         str(obj.get("solver_version") or version), max_nodes,
                         None if max_seconds is None else float(max_seconds))
    except (ValueError, TypeError) as err:
        raise CensusError(f"{where}: {err}") from None


def _rows(path: Path, report: ImportReport) -> Iterator[CensusRow]:
    version = solver_version()
    if not path.exists():  # read_results takes a missing file as empty; an import wants it
        raise CensusError(f"cannot read {str(path)!r}: no such file")

    def cut_short() -> None:  # the writer is still on the last line
        report.partial += 1

    try:
        for n, obj in read_numbered_results(path, cut_short):
            report.read += 1
            if obj["seed"] is None:
                report.no_seed += 1
                continue
            yield _row(obj, f"{path}:{n}", version)
    except ResultsFileError as err:
        raise CensusError(str(err)) from None


def _parquet_rows(path: Path, report: ImportReport) -> Iterator[CensusRow]:
    """The rows of a census Parquet export, checked like a results file's."""
    require("pyarrow")
    import pyarrow.parquet as pq

    try:
        source = pq.ParquetFile(path)
    except (OSError, ValueError) as err:  # pyarrow's ArrowInvalid is a ValueError
        raise CensusError(f"cannot read {str(path)!r}: {err}") from None
    names = source.schema_arrow.names
    missing = [c for c in COLUMNS if c not in names and c not in LIMIT_COLUMNS]
    if missing:
        raise CensusError(f"{path}: not a census export (missing {', '.join(missing)})")
    # Exports from before 0.2 have no limit columns: their rows read as limits not known.
    for batch in source.iter_batches(batch_size=BATCH,
                                     columns=[c for c in COLUMNS if c in names]):
        for n, obj in enumerate(batch.to_pylist(), report.read + 1):
            report.read += 1
            yield _row(obj, f"{path}: row {n}", "unknown")


def import_file(store: Store, path: str | Path) -> ImportReport:
    """Add every result of a results file (JSON lines) or census export (``.parquet``)."""
    report = ImportReport()
    path = Path(path)
    try:  # a FIFO or a device would block or never end: refused before it is opened
        check_regular(path, "import")
    except ResultsFileError as err:
        raise CensusError(str(err)) from None
    if path.suffix.lower() in (".parquet", ".pq"):
        if not path.exists():
            raise CensusError(f"cannot read {str(path)!r}: no such file")
        rows = _parquet_rows(path, report)
    else:
        rows = _rows(path, report)
    while True:
        with store.transaction():
            batch = list(islice(rows, BATCH))
            report.saved += store.add(batch)
            # Two proven results for one deal that disagree: refused, this batch undone.
            clash = store.proven_conflict(batch)
            if clash is not None:
                stored, row = clash
                raise CensusError(
                    f"{path}: seed {row.seed} ({row.variant}/{row.weapon_rule}) is proven to "
                    f"score {row.best_score} here but {stored.best_score} in the store "
                    f"(solver {stored.solver_version}); one of them is wrong"
                )
        if len(batch) < BATCH:
            return report
