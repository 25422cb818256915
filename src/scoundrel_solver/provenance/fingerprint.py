"""A search's version, declared, and the fingerprint that shows it is current.

Results of two revisions of a search must never be mixed in one table, yet a
refactor, a moved module or a corrected comment must not disown every row
already published. So a search's version follows its *behaviour*: each search
ships a record (a JSON file beside its code) holding

- ``version``: the name results are stamped with;
- ``positions``: a fixed set of positions of every variant, as text;
- ``fingerprint``: SHA-256 over what the search answers on them (its
  decisions, values and node counts, one line per position).

A test recomputes the fingerprint. If it differs, behaviour changed and the
version must change with it: ``python scripts/fingerprint.py write fair`` (or
``exact``) records the new fingerprint and names the new version
``PACKAGE_VERSION+KIND.HASH`` after its first 12 hex digits. Nothing else
changes a version.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

__all__ = ["RECORD_FILE", "SEARCHES", "Record", "current", "declared_version", "digest",
           "read_record", "record_behaviour", "record_path", "search_module", "write_record"]

RECORD_FILE: Final = "fingerprint.json"
"""The record's file name, in the package of the search it fingerprints."""

SEARCHES: Final = {"exact": "scoundrel_solver.exact.version",
                    "fair": "scoundrel_solver.fair.version",
                    "bound": "scoundrel_solver.bound.version"}
"""Each fingerprinted search and the module that declares it."""


@dataclass(frozen=True)
class Record:
    """A search's declared version, its positions and their fingerprint."""

    version: str
    positions: tuple[str, ...]
    fingerprint: str


def digest(lines: Iterable[str]) -> str:
    """SHA-256 (hex) over the lines, each ended by a newline."""
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode() + b"\n")
    return h.hexdigest()


def record_path(package: str) -> Path:
    """Where ``package`` (say ``scoundrel_solver.exact``) keeps its record. Found without
    running the package's ``__init__``, which for the exact search loads numba: the
    census reads the solver's version and nothing else of it."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ValueError(f"{package!r} is not a package")
    return Path(next(iter(spec.submodule_search_locations))) / RECORD_FILE


@cache
def read_record(package: str) -> Record:
    """The record shipped in ``package`` (say ``scoundrel_solver.fair``)."""
    data = json.loads(record_path(package).read_text())
    return Record(str(data["version"]), tuple(data["positions"]), str(data["fingerprint"]))


def declared_version(kind: str) -> str:
    """The version the search ``kind`` (``exact``, ``fair`` or ``bound``) declares in its
    record."""
    return read_record(SEARCHES[kind].rpartition(".")[0]).version


def write_record(path: Path, record: Record) -> None:
    """Write ``record`` as the JSON file ``path`` (one position a line, for diffs)."""
    path.write_text(json.dumps({"version": record.version, "fingerprint": record.fingerprint,
                                "positions": list(record.positions)}, indent=1) + "\n")


def search_module(kind: str) -> Any:
    """The module that declares the search ``kind`` (say ``exact``): its
    ``RECORD_PACKAGE``, ``fingerprint_lines(positions)`` and ``sample_positions()``."""
    if kind not in SEARCHES:
        raise ValueError(f"unknown search {kind!r}; known: {', '.join(SEARCHES)}")
    return importlib.import_module(SEARCHES[kind])


def current(kind: str) -> tuple[Record, str]:
    """The search's shipped record and the fingerprint it gives now."""
    mod = search_module(kind)
    record = read_record(mod.RECORD_PACKAGE)
    return record, digest(mod.fingerprint_lines(record.positions))


def record_behaviour(kind: str, new_positions: bool = False) -> tuple[Record, bool]:
    """Recompute the search's fingerprint (on its recorded positions, or on newly drawn
    ones) and, if it changed, write the record with a new version named after it.
    Returns the record and whether it was written."""
    from scoundrel_core import __version__

    mod = search_module(kind)
    path = record_path(mod.RECORD_PACKAGE)
    old = read_record(mod.RECORD_PACKAGE) if path.is_file() else None
    positions = tuple(mod.sample_positions()) if new_positions or old is None else old.positions
    now = digest(mod.fingerprint_lines(positions))
    if old is not None and now == old.fingerprint and positions == old.positions:
        return old, False
    record = Record(f"{__version__}+{kind}.{now[:12]}", positions, now)
    write_record(path, record)
    read_record.cache_clear()
    return record, True
