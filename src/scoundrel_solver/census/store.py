"""The census store: one SQLite row per (variant, weapon rule, seed).

SQLite's INTEGER is a signed 64-bit number, but seeds run up to 2**64 - 1, so
a seed is stored shifted, as ``seed - 2**63``: every seed fits, and the shift
keeps the order, so a seed range is still one index range. ``CensusRow`` and
every function here speak in real seeds; only the SQL sees shifted ones.

A row is only ever replaced by a better one: a proven result is final, and an
unproven one gives way to a proven one, or to an unproven one that searched
more nodes. Two runs into one store therefore never count a deal twice.
Writes happen in transactions (``with store.transaction()``), so a run killed
at any moment keeps every result committed before.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from ..revision import solver_version
from ..seeds import SeedRange
from .errors import CensusError

__all__ = [
    "COLUMNS",
    "DEFAULT_DB",
    "FORMAT",
    "SEED_SHIFT",
    "CensusRow",
    "Store",
    "solver_version",
]

FORMAT = "scoundrel-census/1"
"""The store's format, kept in its ``meta`` table."""
DEFAULT_DB = "scoundrel-census.sqlite"
"""The store's file name when ``--db`` is not given."""
SEED_SHIFT = 2**63  # stored seed = seed - SEED_SHIFT: 0 .. 2**64-1 fits a signed INTEGER
"""Stored seed = seed - SEED_SHIFT, so 0 .. 2**64-1 fits SQLite's signed INTEGER in order."""

COLUMNS = (
    "variant", "weapon_rule", "seed", "best_score", "upper_bound", "proven", "winnable",
    "nodes", "seconds", "solver_version",
)
"""The columns of a stored row, in order (also the export's)."""

_SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta VALUES ('format', '{FORMAT}'), ('seed_offset', '-{SEED_SHIFT}');
CREATE TABLE results (
    variant TEXT NOT NULL,
    weapon_rule TEXT NOT NULL,
    seed INTEGER NOT NULL,          -- the deal's seed minus 2**63
    best_score INTEGER NOT NULL,    -- proven optimum, or best line found when unproven
    upper_bound INTEGER NOT NULL,   -- what the search could not rule out
    proven INTEGER NOT NULL,        -- 1 when best_score is the proven optimum
    winnable INTEGER,               -- 1/0; NULL when unproven and no winning line found
    nodes INTEGER NOT NULL,
    seconds REAL NOT NULL,
    solver_version TEXT NOT NULL,
    PRIMARY KEY (variant, weapon_rule, seed)
) WITHOUT ROWID;
"""

# Insert, or replace only by a better row: proven beats unproven; between two
# unproven rows the one that searched more nodes wins; a proven row is final.
_UPSERT = f"""
INSERT INTO results ({", ".join(COLUMNS)}) VALUES ({", ".join("?" * len(COLUMNS))})
ON CONFLICT (variant, weapon_rule, seed) DO UPDATE SET
    {", ".join(f"{c} = excluded.{c}" for c in COLUMNS[3:])}
WHERE results.proven = 0
  AND (excluded.proven = 1 OR excluded.nodes > results.nodes)
"""


class CensusRow(NamedTuple):
    """One deal's result, with the seed as the real seed (0 .. 2**64 - 1)."""

    variant: str
    weapon_rule: str
    seed: int
    best_score: int
    upper_bound: int
    proven: bool
    winnable: bool | None
    nodes: int
    seconds: float
    solver_version: str


def _to_sql(row: CensusRow) -> tuple[object, ...]:
    winnable = None if row.winnable is None else int(row.winnable)
    return (row.variant, row.weapon_rule, row.seed - SEED_SHIFT, row.best_score,
            row.upper_bound, int(row.proven), winnable, row.nodes, row.seconds,
            row.solver_version)


def _from_sql(values: Any) -> CensusRow:
    v, w, seed, best, ub, proven, winnable, nodes, secs, version = values
    return CensusRow(v, w, seed + SEED_SHIFT, best, ub, bool(proven),
                     None if winnable is None else bool(winnable), nodes, secs, version)


def _is_census(conn: sqlite3.Connection) -> bool:
    try:
        found = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
    except sqlite3.DatabaseError:  # not SQLite at all, or no meta table
        return False
    return found is not None and found[0] == FORMAT


class Store:
    """A census database (created when ``path`` does not exist yet).

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "c.sqlite")
    >>> with Store(path) as store:
    ...     top = CensusRow("hard", "strict", 2**64 - 1, 5, 5, True, True, 10, 0.01, "x")
    ...     with store.transaction():
    ...         store.add([top])
    ...     [r.seed for r in store.rows()] == [2**64 - 1]
    1
    True
    """

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = Path(path)
        if self.path.is_dir():
            raise CensusError(f"{str(self.path)!r} is a directory, not a census database")
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        if fresh and not create:
            raise CensusError(f"no census database at {str(self.path)!r}")
        try:
            # Autocommit mode: transactions are explicit, in transaction().
            self.conn = sqlite3.connect(self.path, timeout=60, isolation_level=None)
        except sqlite3.Error as err:
            raise CensusError(f"cannot open {str(self.path)!r}: {err}") from None
        try:
            if fresh:
                self.conn.executescript("BEGIN;" + _SCHEMA + "COMMIT;")
            elif not _is_census(self.conn):
                raise CensusError(f"{str(self.path)!r} is not a census database")
            # WAL lets `summary` read while `run` writes; FULL syncs each commit,
            # so a power cut loses nothing committed.
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.execute("PRAGMA synchronous = FULL")
        except sqlite3.Error as err:
            self.conn.close()
            raise CensusError(f"cannot use {str(self.path)!r}: {err}") from None
        except BaseException:
            self.conn.close()
            raise

    def close(self) -> None:
        """Close the database (``with Store(...)`` does it)."""
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All writes inside commit together, or (on any exception) not at all."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def add(self, rows: Iterable[CensusRow]) -> int:
        """Insert rows (inside a transaction); returns how many were new or improved."""
        before = self.conn.total_changes
        self.conn.executemany(_UPSERT, (_to_sql(r) for r in rows))
        return self.conn.total_changes - before

    def _where(self, variant: str | None, weapon_rule: str | None,
               seeds: SeedRange | None) -> tuple[str, list[object]]:
        clauses: list[str] = []
        args: list[object] = []
        if variant is not None:
            clauses.append("variant = ?")
            args.append(variant)
        if weapon_rule is not None:
            clauses.append("weapon_rule = ?")
            args.append(weapon_rule)
        if seeds is not None:
            # Inclusive at the top: stop itself may be 2**64, out of SQLite's reach.
            clauses.append("seed BETWEEN ? AND ?")
            args += [seeds.start - SEED_SHIFT, seeds.stop - 1 - SEED_SHIFT]
        return (" WHERE " + " AND ".join(clauses) if clauses else ""), args

    def rows(self, variant: str | None = None, weapon_rule: str | None = None,
             seeds: SeedRange | None = None) -> Iterator[CensusRow]:
        """Stored rows in (variant, weapon rule, seed) order, read lazily."""
        where, args = self._where(variant, weapon_rule, seeds)
        cur = self.conn.execute(
            f"SELECT {', '.join(COLUMNS)} FROM results{where} "
            "ORDER BY variant, weapon_rule, seed", args)
        for values in cur:
            yield _from_sql(values)

    def count(self, variant: str | None = None, weapon_rule: str | None = None,
              seeds: SeedRange | None = None) -> int:
        """How many rows are stored (of a variant, a weapon rule, a seed range)."""
        where, args = self._where(variant, weapon_rule, seeds)
        return int(self.conn.execute(f"SELECT COUNT(*) FROM results{where}",
                                     args).fetchone()[0])

    def _settled_query(self, what: str, variant: str, weapon_rule: str, seeds: SeedRange,
                       max_seconds: float | None) -> sqlite3.Cursor:
        where, args = self._where(variant, weapon_rule, seeds)
        # Unproven rows count as settled when their search already spent at least
        # the run's limit; with no limit the parameter is NULL, so only proven ones.
        return self.conn.execute(
            f"SELECT {what} FROM results{where} AND (proven = 1 OR seconds >= ?)",
            [*args, max_seconds])

    def settled(self, variant: str, weapon_rule: str, seeds: SeedRange,
                max_seconds: float | None) -> set[int]:
        """Seeds of the range a run with this limit skips: proven ones, and unproven
        ones whose search already spent at least ``max_seconds`` (no limit: none)."""
        cur = self._settled_query("seed", variant, weapon_rule, seeds, max_seconds)
        return {s + SEED_SHIFT for (s,) in cur}

    def settled_count(self, variant: str, weapon_rule: str, seeds: SeedRange,
                      max_seconds: float | None) -> int:
        """``len(settled(...))`` without building the set."""
        cur = self._settled_query("COUNT(*)", variant, weapon_rule, seeds, max_seconds)
        return int(cur.fetchone()[0])

    def groups(self) -> list[tuple[str, str]]:
        """The (variant, weapon rule) pairs present, sorted."""
        return [(str(v), str(w)) for v, w in self.conn.execute(
            "SELECT DISTINCT variant, weapon_rule FROM results ORDER BY variant, weapon_rule")]

