"""The JSON-lines files that resumable runs append to: read back, and made ready to append.

A run appends one JSON object per line, each line in one write, as soon as its
work is done; it may be stopped at any moment. So the last line of a file may
be cut short mid-write. Readers skip such a line (it never counted) and
writers remove it before appending again, so every line that counts is whole.
Used by the solver's results files (:mod:`.batch`, the census import) and by
the scripts that record games into ``data/``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import scoundrel_core as sc

__all__ = ["ResultsFileError", "drop_cut_line", "read_json_lines"]


class ResultsFileError(sc.ScoundrelError):
    """A results file that cannot be read or written (the message names the file)."""

    @classmethod
    def cannot(cls, verb: str, path: Path, err: OSError) -> ResultsFileError:
        """The error for an ``open``, read or write of the file that failed."""
        return cls(f"cannot {verb} results file {str(path)!r}: {err.strerror}")


def read_json_lines(
    path: str | Path, cut_short: Callable[[], None] | None = None
) -> Iterator[tuple[int, Any]]:
    """Each line of a JSON-lines file appended to by a resumable run, parsed, with its
    line number (a missing file has none). A last line without its newline that does
    not parse was cut short by a stop mid-write: it is skipped (``cut_short()`` is
    called); anything else unreadable is a :class:`ResultsFileError` naming the file
    and line. ``drop_cut_line`` removes such a line before appending again."""
    path = Path(path)
    try:
        f = path.open(encoding="utf-8")
    except FileNotFoundError:
        return
    except OSError as err:
        raise ResultsFileError.cannot("read", path, err) from None
    with f:
        try:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except (json.JSONDecodeError, RecursionError):
                    if _cut_short(line):
                        if cut_short is not None:
                            cut_short()
                        return
                    raise ResultsFileError(
                        f"{path}:{n}: not a JSON line; is this a results file?"
                    ) from None
                yield n, row
        except UnicodeDecodeError:
            raise ResultsFileError(f"{path}: not UTF-8 text; is this a results file?") from None


def _cut_short(line: str) -> bool:
    """A last line without its newline that began as a row: a write stopped midway."""
    return not line.endswith("\n") and line.startswith("{")


def drop_cut_line(path: str | Path) -> None:
    """Remove a last line cut short (a run stopped mid-write: its row never counted),
    so what is appended next starts a line; this also checks the file can be written
    before any work (it is created if missing)."""
    path = Path(path)
    try:
        with path.open("ab+") as f:
            end = f.seek(0, 2)
            keep = end
            while keep:  # back to just after the last newline
                start = max(0, keep - 65536)
                f.seek(start)
                chunk = f.read(keep - start)
                if keep == end and chunk.endswith(b"\n"):
                    break
                cut = chunk.rfind(b"\n")
                if cut >= 0:
                    keep = start + cut + 1
                    break
                keep = start
            f.seek(keep)
            if keep != end and f.read(1) == b"{":  # began as a row: see _cut_short
                f.truncate(keep)
    except OSError as err:
        raise ResultsFileError.cannot("write", path, err) from None
