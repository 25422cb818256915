"""The stored rows as Parquet (pyarrow) or CSV, for pandas and polars users.

Rows are written in (variant, weapon rule, seed) order, in batches, so the
export of a huge store needs little memory. The seed is the real seed (a
``uint64`` column in Parquet), not the shifted value SQLite holds. ``seeds``
limits the export to a seed range (the published file keeps seeds 0-99,999 of
each variant). A Parquet file carries its provenance (command, commit, date,
version) as key-value metadata, see :mod:`scoundrel_solver.provenance`. Every
export is whole or not written (see :func:`export`).
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

from scoundrel_core.files import replacing

from ..provenance import parquet_metadata
from ..runs.seeds import SeedRange
from .errors import CensusError, CensusSystemError, require
from .store import COLUMNS, CensusRow, Store

__all__ = ["export"]

BATCH = 65_536


def _batches(store: Store, seeds: SeedRange | None) -> Iterator[list[CensusRow]]:
    rows = store.rows(seeds=seeds)
    while batch := list(islice(rows, BATCH)):
        yield batch


def _parquet(store: Store, path: Path, seeds: SeedRange | None,
             stamp: dict[str, str] | None) -> int:
    require("pyarrow")
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema([
        ("variant", pa.string()), ("weapon_rule", pa.string()), ("seed", pa.uint64()),
        ("best_score", pa.int16()), ("upper_bound", pa.int16()), ("proven", pa.bool_()),
        ("winnable", pa.bool_()), ("nodes", pa.int64()), ("seconds", pa.float64()),
        ("solver_version", pa.string()), ("max_nodes", pa.int64()),
        ("max_seconds", pa.float64()),
    ], metadata=parquet_metadata(stamp) if stamp else None)
    assert tuple(schema.names) == COLUMNS
    n = 0
    with pq.ParquetWriter(path, schema, compression="zstd") as writer:
        for batch in _batches(store, seeds):
            columns = list(zip(*batch, strict=True))
            writer.write_table(pa.Table.from_arrays(
                [pa.array(col, type=field.type) for col, field in zip(columns, schema,
                                                                      strict=True)],
                schema=schema))
            n += len(batch)
    return n


def _csv(store: Store, path: Path, seeds: SeedRange | None) -> int:
    n = 0
    with path.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(COLUMNS)
        for batch in _batches(store, seeds):
            out.writerows(batch)
            n += len(batch)
    return n


def _same_file(a: Path, b: Path) -> bool:
    """Whether two names are one file (links, ``./``, another spelling of the path)."""
    try:
        sa, sb = os.stat(a), os.stat(b)
    except OSError:
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def export(store: Store, out: str | Path, seeds: SeedRange | None = None,
           provenance: dict[str, str] | None = None) -> int:
    """Write the stored rows (of ``seeds``, or all) to ``out`` (``.parquet`` or ``.csv``).

    ``provenance`` (:func:`scoundrel_solver.provenance.provenance`) goes into a
    Parquet file's metadata. Returns the number of rows written.

    The export is written to a temporary file beside ``out`` and renamed over it only
    when complete: a failed export (a full disk, a damaged store, a value out of range)
    leaves any earlier file at ``out`` as it was. ``out`` may not be the store itself
    (or its journal), however it is named.
    """
    path = Path(out)
    suffix = path.suffix.lower()
    if suffix not in (".parquet", ".pq", ".csv"):
        raise CensusError(f"cannot export to {str(path)!r}: the name must end in "
                          ".parquet or .csv")
    for own in (store.path, Path(f"{store.path}-wal"), Path(f"{store.path}-shm")):
        if _same_file(path, own):
            raise CensusError(f"cannot export to {str(path)!r}: it is the census database "
                              f"{str(store.path)!r} itself")
    if suffix != ".csv":
        require("pyarrow")
    try:
        with replacing(path, "export") as tmp:
            if suffix == ".csv":
                return _csv(store, Path(tmp), seeds)
            return _parquet(store, Path(tmp), seeds, provenance)
    except OSError as err:  # OutputError: names the file, says why, says the old one stays
        raise CensusSystemError(str(err)) from None
