"""Where a published file came from: the command, the commit, the date and the version.

Every producer of a file in ``data/`` stamps it with :func:`provenance`: as
Parquet key-value metadata (:func:`parquet_metadata`, keys ``scoundrel.*``) or
as ``#`` comment lines at the top of a CSV file (:func:`csv_header`; read it
back with ``pandas.read_csv(path, comment="#")``). ``data/README.md`` lists
the same facts for every file.
"""

from __future__ import annotations

import datetime as dt
import shlex
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from scoundrel_core import __version__

__all__ = [
    "PREFIX",
    "csv_header",
    "parquet_metadata",
    "provenance",
    "read_provenance",
    "script_provenance",
]

PREFIX = "scoundrel."
"""The prefix of the Parquet metadata keys: ``scoundrel.command`` and so on."""

_HERE = Path(__file__).resolve().parent


def _commit() -> str:
    """The checkout's commit (``-dirty`` when its files differ from it), or ``unknown``."""
    try:
        done = subprocess.run(["git", "describe", "--always", "--dirty", "--abbrev=12"],
                              cwd=_HERE, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else "unknown"


def provenance(argv: Sequence[str] | None = None) -> dict[str, str]:
    """The command (``sys.argv`` unless given), commit, UTC date and package version."""
    args = list(sys.argv if argv is None else argv)
    if args and args[0].endswith(".py"):  # a script: as it was typed
        args.insert(0, "python")
    elif args:  # a console script: its name, not the venv's path to it
        args[0] = Path(args[0]).name
    return {
        "command": shlex.join(args),
        "commit": _commit(),
        "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "version": __version__,
    }


def script_provenance(file: str, argv: Sequence[str] | None) -> dict[str, str]:
    """:func:`provenance` of a script's ``main(argv)``: ``python path/to/script.py ARGS``.

    ``argv`` None means the command line (``sys.argv``); given, it is what
    ``main`` was called with, and the script's path is written relative to the
    working directory when it lies below it.
    """
    if argv is None:
        return provenance()
    path = Path(file).resolve()
    try:
        shown = str(path.relative_to(Path.cwd()))
    except ValueError:
        shown = str(path)
    return provenance([shown, *argv])


def parquet_metadata(p: dict[str, str]) -> dict[bytes, bytes]:
    """``p`` as Parquet key-value metadata (merge it into a schema's metadata)."""
    return {f"{PREFIX}{k}".encode(): v.encode() for k, v in p.items()}


def csv_header(p: dict[str, str]) -> str:
    """``p`` as ``# key: value`` lines to write before a CSV file's column names."""
    return "".join(f"# {k}: {v}\n" for k, v in p.items())


def read_provenance(path: str | Path) -> dict[str, str]:
    """The provenance a producer wrote into a Parquet or CSV file (empty if none)."""
    path = Path(path)
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        meta = pq.read_schema(path).metadata or {}
        return {k.decode()[len(PREFIX):]: v.decode() for k, v in meta.items()
                if k.decode().startswith(PREFIX)}
    found: dict[str, str] = {}
    with path.open() as f:
        for line in f:
            if not line.startswith("# "):
                break
            key, _, value = line[2:].rstrip("\n").partition(": ")
            found[key] = value
    return found
