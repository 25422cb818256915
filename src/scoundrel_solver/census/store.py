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

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

import scoundrel_core as sc

from ..provenance.fingerprint import declared_version
from ..runs.result_rows import BEST_SCORE, MAX_LIMIT, WORST_SCORE, BadRow, check_row
from ..runs.seeds import SeedRange
from .errors import CensusError, CensusSystemError

__all__ = [
    "COLUMNS",
    "DEFAULT_DB",
    "FORMAT",
    "LIMIT_COLUMNS",
    "SEED_SHIFT",
    "CensusRow",
    "Store",
    "solver_version",
]


def solver_version() -> str:
    """The exact solver's version, stored with every row (``scoundrel_solver.exact.version``)."""
    return declared_version("exact")

FORMAT = "scoundrel-census/1"
"""The store's format, kept in its ``meta`` table."""
DEFAULT_DB = "scoundrel-census.sqlite"
"""The store's file name when ``--db`` is not given."""
SEED_SHIFT = 2**63  # stored seed = seed - SEED_SHIFT: 0 .. 2**64-1 fits a signed INTEGER
"""Stored seed = seed - SEED_SHIFT, so 0 .. 2**64-1 fits SQLite's signed INTEGER in order."""

COLUMNS = (
    "variant", "weapon_rule", "seed", "best_score", "upper_bound", "proven", "winnable",
    "nodes", "seconds", "solver_version", "max_nodes", "max_seconds",
)
"""The columns of a stored row, in order (also the export's)."""
LIMIT_COLUMNS = ("max_nodes", "max_seconds")
"""Added in 0.2: the limits a row's search ran under (NULL: none, or, for an unproven row
stored before they were kept, not known). Older stores gain them when opened to write."""

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
    max_nodes INTEGER,              -- the limits the search ran under; NULL for none
    max_seconds REAL,
    PRIMARY KEY (variant, weapon_rule, seed)
) WITHOUT ROWID;
"""
# Two commands creating one new store at once: whichever takes the write lock second finds
# the tables made and adds nothing (no "table meta already exists").
_CREATE = ("BEGIN IMMEDIATE;"
           + _SCHEMA.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS")
                    .replace("INSERT INTO", "INSERT OR IGNORE INTO")
           + "COMMIT;")

# Insert, or replace only by a better row: proven beats unproven; a proven row is final.
# Between two unproven rows the new one is taken when it searched more nodes, or ran under
# larger limits (no limit is the largest; a retry under a longer --max-seconds may, by
# timing noise, search fewer nodes, and must still leave its limit in the store, or every
# later run with that limit would retry the deal again). What either search found stays
# known: the higher best score (and so a winning line found), the lower upper bound.
_LARGER = ("(excluded.{c} IS NULL AND results.{c} IS NOT NULL OR "
           "excluded.{c} > results.{c})")
_NO_SMALLER = "(excluded.{c} IS NULL OR excluded.{c} >= results.{c})"
_TAKEN = ("(excluded.proven = 1 OR excluded.nodes > results.nodes OR ("
          + " AND ".join(_NO_SMALLER.format(c=c) for c in ("max_nodes", "max_seconds"))
          + " AND (" + " OR ".join(_LARGER.format(c=c) for c in ("max_nodes", "max_seconds"))
          + ")))")
_BEST = "MAX(results.best_score, excluded.best_score)"
_MERGED = {
    "best_score": f"CASE WHEN excluded.proven = 1 THEN excluded.best_score ELSE {_BEST} END",
    "upper_bound": ("CASE WHEN excluded.proven = 1 THEN excluded.upper_bound ELSE MAX(MIN("
                    f"results.upper_bound, excluded.upper_bound), {_BEST}) END"),
    "winnable": (f"CASE WHEN excluded.proven = 1 THEN excluded.winnable WHEN {_BEST} > 0 "
                 "THEN 1 ELSE NULL END"),
}
_UPSERT = f"""
INSERT INTO results ({", ".join(COLUMNS)}) VALUES ({", ".join("?" * len(COLUMNS))})
ON CONFLICT (variant, weapon_rule, seed) DO UPDATE SET
    {", ".join(f"{c} = {_MERGED.get(c, f'excluded.{c}')}" for c in COLUMNS[3:])}
WHERE results.proven = 0 AND {_TAKEN}
"""


class CensusRow(NamedTuple):
    """One deal's result, with the seed as the real seed (0 .. 2**64 - 1), and the limits
    its search ran under (None: no limit)."""

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
    max_nodes: int | None = None
    max_seconds: float | None = None


def _to_sql(row: CensusRow) -> tuple[object, ...]:
    winnable = None if row.winnable is None else int(row.winnable)
    return (row.variant, row.weapon_rule, row.seed - SEED_SHIFT, row.best_score,
            row.upper_bound, int(row.proven), winnable, row.nodes, row.seconds,
            row.solver_version, row.max_nodes, row.max_seconds)


def _from_sql(values: Any) -> CensusRow:
    v, w, seed, best, ub, proven, winnable, nodes, secs, version, mn, ms = values
    return CensusRow(v, w, seed + SEED_SHIFT, best, ub, bool(proven),
                     None if winnable is None else bool(winnable), nodes, secs, version,
                     mn, ms)


def _flag(value: object) -> object:
    """A stored 0/1 as the bool a results row has (anything else is left to be refused)."""
    if type(value) is int and value in (0, 1):
        return bool(value)
    return value


def _checked(values: Any, path: Path) -> CensusRow:
    """A stored row, checked by the results files' rules
    (:func:`~scoundrel_solver.runs.result_rows.check_row`) before it is used: an edited
    row (a score of 999, an unknown variant, ``winnable`` against the score, negative
    seconds, text in a number column) is a :class:`CensusError` naming the store and the
    row, never a traceback or a number passed on."""
    v, w, seed, best, ub, proven, winnable, nodes, secs, version, mn, ms = values
    real_seed = seed + SEED_SHIFT if type(seed) is int else seed
    where = (f"census database {str(path)!r}: the row of {sc.excerpt(v, 20)}/"
             f"{sc.excerpt(w, 20)} seed {sc.excerpt(real_seed, 30)}")
    row = {"seed": real_seed, "variant": v, "weapon_rule": w, "best_score": best,
           "upper_bound": ub, "proven": _flag(proven),
           "winnable": None if winnable is None else _flag(winnable), "nodes": nodes,
           "seconds": secs, "max_nodes": mn, "max_seconds": ms}
    try:
        if real_seed is None:
            raise BadRow(f"{where}: seed is null")
        check_row(row, where)
        if not isinstance(version, str):
            raise BadRow(f"{where}: solver_version {sc.excerpt(version, 40)} is not text")
    except BadRow as err:
        raise CensusError(f"{err} (the store was changed by hand? remove or mend the row)"
                          ) from None
    return _from_sql(values)


# A stored row the rules of check_row refuse, in SQL: the summary finds the first one
# without reading every row into Python (check_row then words the error). A test compares
# the two on generated rows. The variant names and bounds are parameters (_BAD_ARGS).
_BAD_ROW = """NOT (
    typeof(variant) = 'text' AND variant IN ({flee})
    AND typeof(weapon_rule) = 'text' AND weapon_rule IN ({weapon})
    AND typeof(seed) = 'integer'
    AND typeof(best_score) = 'integer' AND best_score BETWEEN ? AND ?
    AND typeof(upper_bound) = 'integer' AND upper_bound BETWEEN best_score AND ?
    AND typeof(proven) = 'integer' AND proven IN (0, 1)
    AND (winnable IS NULL OR (typeof(winnable) = 'integer' AND winnable IN (0, 1)))
    AND CASE WHEN proven = 1
        THEN upper_bound = best_score AND winnable IS NOT NULL AND winnable = (best_score > 0)
        ELSE (best_score > 0 AND winnable IS NOT NULL AND winnable = 1)
             OR (best_score <= 0 AND winnable IS NULL) END
    AND typeof(nodes) = 'integer' AND nodes >= 0
    AND typeof(seconds) IN ('integer', 'real') AND seconds >= 0 AND seconds <= ?
    AND typeof(solver_version) = 'text'
    AND (max_nodes IS NULL OR (typeof(max_nodes) = 'integer' AND max_nodes >= 1))
    AND (max_seconds IS NULL OR (typeof(max_seconds) IN ('integer', 'real')
                                 AND max_seconds > 0 AND max_seconds <= ?))
)""".format(flee=", ".join("?" * len(sc.FLEE_RULES)),
            weapon=", ".join("?" * len(sc.WEAPON_RULES)))
_FLOAT_MAX = 1.7976931348623157e308  # the largest finite double: inf is refused
_BAD_ARGS = (*sc.FLEE_RULES, *sc.WEAPON_RULES, WORST_SCORE, BEST_SCORE, BEST_SCORE,
             _FLOAT_MAX, _FLOAT_MAX)
assert MAX_LIMIT == 2**63 - 1  # SQLite's INTEGER: max_nodes cannot exceed it in the store


_SQLITE_MAGIC = b"SQLite format 3\x00"


def _is_census(conn: sqlite3.Connection, path: Path) -> bool:
    """Whether the file is a census store; a damaged SQLite file raises (it is one)."""
    try:
        found = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
    except sqlite3.DatabaseError:  # not SQLite at all, no meta table, or damaged
        with open(path, "rb") as f:
            if f.read(len(_SQLITE_MAGIC)) != _SQLITE_MAGIC:
                return False  # some other file
        if conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'meta'").fetchone()[0]:
            raise  # the census's tables are there but do not read: damaged
        return False  # an SQLite database of something else
    return found is not None and found[0] == FORMAT


def _no_larger(mine: float | None, column: str, args: list[object]) -> str:
    """SQL: this run's limit is no larger than the row's (None: no limit, the largest).
    The limit goes in as a parameter (appended to ``args``), never into the SQL text."""
    if mine is None:
        return f"{column} IS NULL"
    args.append(mine)
    return f"({column} IS NULL OR {column} >= ?)"


def _nearly_full(path: Path) -> bool:
    try:
        st = os.statvfs(path.parent)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 64 * 1024


@contextmanager
def _damage_named(path: Path) -> Iterator[None]:
    """SQLite's own errors on a store become one line naming the file (a damaged file, a
    full disk, a store another program changed): never a traceback."""
    try:
        yield
    except sqlite3.DatabaseError as err:
        text = str(err)
        # SQLite says "database or disk is full", or in WAL mode only "disk I/O error".
        if isinstance(err, sqlite3.OperationalError) and (
            "full" in text or ("I/O" in text and _nearly_full(path))
        ):
            raise CensusSystemError(f"cannot write census database {str(path)!r}: disk full; "
                                    "every chunk committed before is kept") from None
        if "malformed" in text or "not a database" in text or "no such" in text:
            raise CensusError(f"census database {str(path)!r} is damaged ({text})") from None
        raise CensusError(f"census database {str(path)!r}: {text}") from None


OPEN_SECONDS = 60.0
"""How long opening a store waits for other processes opening or writing it."""


def _while_locked(conn: sqlite3.Connection, step: Callable[[], None]) -> None:
    """Run ``step`` again while SQLite answers "database is locked" at once.

    The connection's busy timeout does not cover every lock: when several
    processes open one new store together, the switch to WAL of one can find
    another's lock and fail without waiting. Each step of opening is safe to
    repeat, so wait a little and repeat it, up to ``OPEN_SECONDS``.
    """
    deadline = time.monotonic() + OPEN_SECONDS
    while True:
        try:
            step()
            return
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() > deadline:
                raise
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            time.sleep(0.02)


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

    def __init__(self, path: str | Path, create: bool = True, readonly: bool = False) -> None:
        """``readonly`` opens for reading only (``summary``, ``export``): a store on a
        read-only disk, or one the user may not write, still reads."""
        self.path = Path(path)
        self.readonly = readonly
        if self.path.exists() and not self.path.is_file():
            raise CensusError(f"{str(self.path)!r} is not a regular file, not a census database")
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        if fresh and (not create or readonly):
            raise CensusError(f"no census database at {str(self.path)!r}")
        self.conn = self._connect()
        try:
            with _damage_named(self.path):
                _while_locked(self.conn, lambda: self._set_up(fresh))
        except BaseException:
            self.conn.close()
            raise

    def _set_up(self, fresh: bool) -> None:
        """Create the tables of a new store, check an old one, and set its journal mode.
        Every step may run again (``_while_locked``)."""
        if fresh:
            self.conn.executescript(_CREATE)
        if not _is_census(self.conn, self.path):
            raise CensusError(f"{str(self.path)!r} is not a census database")
        self._check_tables()
        if not self.readonly:
            # WAL lets `summary` read while `run` writes; FULL syncs each commit,
            # so a power cut loses nothing committed.
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.execute("PRAGMA synchronous = FULL")

    def _connect(self) -> sqlite3.Connection:
        # Autocommit mode: transactions are explicit, in transaction().
        try:
            if not self.readonly:
                return sqlite3.connect(self.path, timeout=60, isolation_level=None)
            uri = f"file:{quote(str(self.path.resolve()))}?mode=ro"
            conn = sqlite3.connect(uri, uri=True, timeout=60, isolation_level=None)
            try:
                conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
            except sqlite3.OperationalError:
                # A WAL store on a read-only disk: SQLite cannot make its shared-memory
                # file there. Nothing can write to it either, so read it as immutable.
                conn.close()
                conn = sqlite3.connect(uri + "&immutable=1", uri=True, timeout=60,
                                       isolation_level=None)
            return conn
        except sqlite3.Error as err:
            if not self.readonly:  # a store to write that cannot be: the system's refusal
                raise CensusSystemError(f"cannot open {str(self.path)!r}: {err}") from None
            raise CensusError(f"cannot open {str(self.path)!r}: {err}") from None

    def _check_tables(self) -> None:
        """The results table has the columns this version reads (older stores gain the
        limit columns when opened to write); anything else is a damaged store."""
        have = [r[1] for r in self.conn.execute("PRAGMA table_info(results)")]
        missing = [c for c in COLUMNS if c not in have]
        if missing and not self.readonly and set(missing) <= set(LIMIT_COLUMNS):
            self.conn.execute("BEGIN IMMEDIATE")
            have = [r[1] for r in self.conn.execute("PRAGMA table_info(results)")]
            for column in LIMIT_COLUMNS:
                if column not in have:
                    kind = "INTEGER" if column == "max_nodes" else "REAL"
                    self.conn.execute(f"ALTER TABLE results ADD COLUMN {column} {kind}")
            self.conn.execute("COMMIT")
            missing = []
        self._columns = [c if c in have or c not in LIMIT_COLUMNS else f"NULL AS {c}"
                         for c in COLUMNS] if missing else list(COLUMNS)
        really = [c for c in missing if c not in LIMIT_COLUMNS]
        if really:
            raise CensusError(f"census database {str(self.path)!r} is damaged: its results "
                              f"table lacks {', '.join(really)}")

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
        if self.readonly:
            raise CensusError(f"census database {str(self.path)!r} was opened to read only")
        with _damage_named(self.path):
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                with contextlib.suppress(sqlite3.Error):  # a failed COMMIT rolled back
                    self.conn.execute("ROLLBACK")
                raise
            try:
                self.conn.execute("COMMIT")
            except sqlite3.Error:
                with contextlib.suppress(sqlite3.Error):
                    self.conn.execute("ROLLBACK")
                raise

    def add(self, rows: Iterable[CensusRow]) -> int:
        """Insert rows (inside a transaction); returns how many were new or improved."""
        before = self.conn.total_changes
        with _damage_named(self.path):
            self.conn.executemany(_UPSERT, (_to_sql(r) for r in rows))
        return self.conn.total_changes - before

    def proven_conflict(self, rows: Iterable[CensusRow]) -> tuple[CensusRow, CensusRow] | None:
        """The first proven row whose deal the store holds proven with another score, as
        (stored, given); None when all agree. (Upserts never replace a proven row, so a
        disagreement would otherwise pass without a word.)"""
        for row in rows:
            if not row.proven:
                continue
            with _damage_named(self.path):
                found = self.conn.execute(
                    f"SELECT {', '.join(self._columns)} FROM results WHERE variant = ? AND "
                    "weapon_rule = ? AND seed = ? AND proven = 1 AND best_score != ?",
                    (row.variant, row.weapon_rule, row.seed - SEED_SHIFT, row.best_score),
                ).fetchone()
            if found is not None:
                return _checked(found, self.path), row
        return None

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
        with _damage_named(self.path):
            cur = self.conn.execute(
                f"SELECT {', '.join(self._columns)} FROM results{where} "
                "ORDER BY variant, weapon_rule, seed", args)
            for values in cur:
                yield _checked(values, self.path)

    def count(self, variant: str | None = None, weapon_rule: str | None = None,
              seeds: SeedRange | None = None) -> int:
        """How many rows are stored (of a variant, a weapon rule, a seed range)."""
        where, args = self._where(variant, weapon_rule, seeds)
        with _damage_named(self.path):
            return int(self.conn.execute(f"SELECT COUNT(*) FROM results{where}",
                                         args).fetchone()[0])

    def _settled_query(self, what: str, variant: str, weapon_rule: str, seeds: SeedRange,
                       max_seconds: float | None, max_nodes: int | None) -> list[Any]:
        where, args = self._where(variant, weapon_rule, seeds)
        # An unproven row is settled when it ran under limits this run does not raise:
        # limits are compared, never the seconds measured (they overshoot the limit). A row
        # whose limits were not kept (both NULL, from before 0.2) is retried only without
        # limits, as a results file's row is.
        held = (f"((max_nodes IS NOT NULL OR max_seconds IS NOT NULL) "
                f"AND {_no_larger(max_nodes, 'max_nodes', args)} "
                f"AND {_no_larger(max_seconds, 'max_seconds', args)})")
        if "max_nodes" not in self._columns:  # a read-only older store: no limits kept
            held = "0"
            del args[len(args) - (max_nodes is not None) - (max_seconds is not None):]
        with _damage_named(self.path):
            return self.conn.execute(
                f"SELECT {what} FROM results{where} AND (proven = 1 OR {held})", args
            ).fetchall()

    def settled(self, variant: str, weapon_rule: str, seeds: SeedRange,
                max_seconds: float | None, max_nodes: int | None = None) -> set[int]:
        """Seeds of the range a run with these limits skips: proven ones, and unproven
        ones that ran under limits at least as large (None: no limit, the largest)."""
        rows = self._settled_query("seed", variant, weapon_rule, seeds, max_seconds, max_nodes)
        return {s + SEED_SHIFT for (s,) in rows}

    def settled_count(self, variant: str, weapon_rule: str, seeds: SeedRange,
                      max_seconds: float | None, max_nodes: int | None = None) -> int:
        """``len(settled(...))`` without building the set."""
        rows = self._settled_query("COUNT(*)", variant, weapon_rule, seeds, max_seconds,
                                   max_nodes)
        return int(rows[0][0])

    @contextmanager
    def guarded(self) -> Iterator[None]:
        """SQLite's errors inside become one line naming the store (as every method here
        does), for callers that query ``conn`` themselves (the summary)."""
        with _damage_named(self.path):
            yield

    def check_rows(self) -> None:
        """Refuse (CensusError naming the row) a store holding a row that the results
        files' rules refuse: one SQL pass, no row read into Python unless it is bad."""
        columns = ", ".join(self._columns)
        with _damage_named(self.path):
            bad = self.conn.execute(
                f"SELECT {columns} FROM ({f'SELECT {columns} FROM results'}) WHERE "
                f"{_BAD_ROW} LIMIT 1", _BAD_ARGS).fetchone()
        if bad is not None:
            _checked(bad, self.path)
            # SQL and check_row disagree: still refuse, naming the row as SQLite has it
            raise CensusError(f"census database {str(self.path)!r}: a row is not one a "
                              f"solve could have written: {sc.excerpt(bad, 200)}")

    def groups(self) -> list[tuple[str, str]]:
        """The (variant, weapon rule) pairs present, sorted."""
        with _damage_named(self.path):
            return [(str(v), str(w)) for v, w in self.conn.execute(
                "SELECT DISTINCT variant, weapon_rule FROM results "
                "ORDER BY variant, weapon_rule")]

