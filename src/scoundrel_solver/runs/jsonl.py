"""The JSON-lines files that resumable runs append to: read back, and made ready to append.

A run appends one JSON object per line as soon as its work is done; it may be
stopped at any moment, and several runs may append to one file at once. What
holds, at the root, for every file written through :class:`LineAppender`:

- **A last line that parses is a row**, newline or not (``printf '%s'`` drops
  it); readers count it and a writer completes it with its newline. A last
  line that does not parse was cut short mid-write: readers skip it (it never
  counted), and a writer removes it before appending, so no row is ever glued
  onto half of another.
- **Every writer takes the file's lock** (``fcntl.flock``) around each append
  and around that repair, so a run starting up never mistakes another run's
  write in progress for a line cut short.
- **A write is checked whole.** A short write or a full disk cuts the file
  back to where the row began (the last newline) and raises :class:`DiskFull`;
  space freed later, the same command resumes where it stopped.
- **Only regular files**: a device, a FIFO or a folder is refused before
  anything is read or written (``/dev/null`` would swallow every row,
  ``/dev/full`` reads as one endless line, a FIFO blocks forever), and a line
  longer than :data:`MAX_LINE_BYTES` is refused, never held in memory.

Used by the solver's results files (:mod:`.batch`, the census import),
``scoundrel-eval --out`` and the scripts that record games into ``data/``.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import signal
import stat
from collections.abc import Callable, Collection, Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any, Final

import scoundrel_core as sc

__all__ = ["MAX_LINE_BYTES", "DiskFull", "LineAppender", "ResultsFileError",
           "ResultsFileUnwritable", "append_missing", "check_regular",
           "drop_cut_line", "read_json_lines"]

MAX_LINE_BYTES: Final = 1 << 20
"""The longest line read (a solver row is about 1 KB; a position's row a few)."""
_TAIL: Final = 65536  # bytes read at a time when looking back for the last newline


class ResultsFileError(sc.ScoundrelError):
    """A results file that cannot be read or written (the message names the file)."""

    @classmethod
    def cannot(cls, verb: str, path: Path, err: OSError) -> ResultsFileError:
        """The error for an ``open``, read or write of the file that failed."""
        return cls(f"cannot {verb} results file {str(path)!r}: {err.strerror}")


class ResultsFileUnwritable(OSError):
    """A results file the system will not let a run write (a missing folder, no permission,
    a read-only disk): the system failed, not the input, so the commands exit 1."""


class DiskFull(ResultsFileError):
    """A write that did not go down whole (a full disk, a short write); the file was cut
    back to its last whole line."""


def check_regular(path: str | Path, what: str = "results file", *, output: bool = False) -> None:
    """Refuse anything at ``path`` that is not a regular file; a missing path is fine.
    ``os.stat`` opens nothing, so a FIFO cannot block here. The error is a
    ResultsFileError (bad input, exit 2), or for an ``output`` (a file a run is to
    write) a :class:`ResultsFileUnwritable` (exit 1, as any output that cannot be written)."""
    def refuse(text: str) -> Exception:
        return ResultsFileUnwritable(text) if output else ResultsFileError(text)

    try:
        st = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as err:
        raise refuse(f"cannot read {what} {str(path)!r}: {err.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise refuse(f"{what} {str(path)!r} is {kind} (a device, a FIFO or a "
                     "folder cannot hold rows)")


def _parses(line: bytes) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except (ValueError, RecursionError):  # JSONDecodeError and UnicodeDecodeError included
        return False


def read_json_lines(
    path: str | Path, cut_short: Callable[[], None] | None = None
) -> Iterator[tuple[int, Any]]:
    """Each line of a JSON-lines file appended to by a resumable run, parsed, with its
    line number (a missing file has none). A last line that parses is a row, newline or
    not; one that does not parse was cut short by a stop mid-write: it is skipped
    (``cut_short()`` is called). Anything else unreadable (not JSON, not UTF-8, a line
    longer than :data:`MAX_LINE_BYTES`, not a regular file) is a
    :class:`ResultsFileError` naming the file and line."""
    path = Path(path)
    check_regular(path)
    try:
        f = path.open("rb")
    except FileNotFoundError:
        return
    except OSError as err:
        raise ResultsFileError.cannot("read", path, err) from None
    with f:
        n = 0
        while True:
            try:
                raw = f.readline(MAX_LINE_BYTES + 1)
            except OSError as err:
                raise ResultsFileError.cannot("read", path, err) from None
            if not raw:
                return
            n += 1
            if len(raw) > MAX_LINE_BYTES:
                raise ResultsFileError(f"{path}:{n}: a line longer than {MAX_LINE_BYTES:,} "
                                       "bytes; is this a results file?")
            if not raw.strip():
                continue
            try:
                row = json.loads(raw.decode("utf-8"))
            except UnicodeDecodeError:
                raise ResultsFileError(f"{path}:{n}: not UTF-8 text; is this a results file?"
                                       ) from None
            except (json.JSONDecodeError, RecursionError):
                if _cut_short(raw):
                    if cut_short is not None:
                        cut_short()
                    return
                raise ResultsFileError(
                    f"{path}:{n}: not a JSON line; is this a results file?"
                ) from None
            except ValueError:  # an integer of over 4,300 digits: Python will not read it
                raise ResultsFileError(f"{path}:{n}: a number with more digits than can be "
                                       "read; is this a results file?") from None
            yield n, row


def _cut_short(line: bytes) -> bool:
    """A last line without its newline that began as a row: a write stopped midway."""
    return not line.endswith(b"\n") and line.lstrip().startswith(b"{")


class LineAppender:
    """Appends whole lines to a JSON-lines file that other writers may share (see the
    module docstring): each :meth:`append` under the file's lock, checked whole.

    Opening checks the file can be written (it is created if missing) and mends its end
    under the lock: a last line that parses gets its newline, one cut short is removed.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.appended = 0
        """Lines this appender wrote whole: the count to report as saved."""
        check_regular(self.path)
        try:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        except OSError as err:
            raise ResultsFileUnwritable(f"cannot write results file {str(self.path)!r}: "
                                        f"{err.strerror}") from None
        try:
            check_regular(self.path)  # a FIFO swapped in between opens without blocking?
            with self._locked():
                self._mend()
        except BaseException:
            os.close(self._fd)
            raise

    def _locked(self) -> _Lock:
        return _Lock(self._fd)

    def _mend(self) -> None:
        """Make the file end just after a newline (called under the lock: no other writer
        is mid-line, so a partial last line is a dead writer's)."""
        end = os.fstat(self._fd).st_size
        if end == 0:
            return
        with open(self.path, "rb") as f:
            f.seek(end - 1)
            if f.read(1) == b"\n":
                return
            keep = end
            while keep:  # back to just after the last newline
                start = max(0, keep - _TAIL)
                f.seek(start)
                cut = f.read(keep - start).rfind(b"\n")
                if cut >= 0:
                    keep = start + cut + 1
                    break
                keep = start
            f.seek(keep)
            tail = f.read(min(end - keep, MAX_LINE_BYTES + 1))
        try:
            if _parses(tail):  # a whole row without its newline: it counts, complete it
                self._write_all(b"\n", end)
            else:
                os.ftruncate(self._fd, keep)
        except OSError as err:
            raise self._failed(err) from None

    def _write_all(self, data: bytes, start: int) -> None:
        """Write every byte or none: on any failure the file is cut back to ``start``."""
        done = 0
        try:
            while done < len(data):
                n = os.write(self._fd, data[done:])
                if n <= 0:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                done += n
        except OSError:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, start)
            raise

    def _failed(self, err: OSError) -> Exception:
        if err.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            return DiskFull(f"disk full writing results file {str(self.path)!r}")
        return ResultsFileUnwritable(f"cannot write results file {str(self.path)!r}: "
                                     f"{err.strerror}")

    def append(self, line: str) -> None:
        """Append one line (a newline is added) whole, or raise with the file as it was."""
        data = (line.rstrip("\n") + "\n").encode("utf-8")
        with _stops_held(), self._locked():
            try:
                self._mend()
                self._write_all(data, os.fstat(self._fd).st_size)
            except OSError as err:
                raise self._failed(err) from None
            self.appended += 1

    def close(self) -> None:
        """Close the file (its lock is only ever held inside :meth:`append`)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> LineAppender:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_STOPS = frozenset(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP")
                  if hasattr(signal, n))


@contextlib.contextmanager
def _stops_held() -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP until a line is written and counted.

    A stop turns into an exception between two bytecodes; arriving between the
    write and the count, the line would be saved but not reported. Held, the
    signal is delivered when the block ends, so the count always matches the file.
    """
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


class _Lock:
    """``fcntl.flock`` held for a ``with`` block (released if the process dies)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def __enter__(self) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_EX)

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)


def drop_cut_line(path: str | Path) -> None:
    """Make a JSON-lines file ready to append to (under its lock): a last line cut short
    is removed, one that parses gets its newline; this also checks, before any work,
    that the file can be written (it is created if missing)."""
    LineAppender(path).close()


def append_missing(
    path: str | Path, keys: Iterable[int], done: Collection[int],
    line_of: Callable[[int], dict[str, Any]], *, stop: Callable[[], bool] = lambda: False,
    progress: Callable[[int, dict[str, Any]], None] | None = None,
) -> int:
    """The loop of a resumable run: for every key (a seed) not in ``done``, in order, make
    its line and append it to ``path`` as it is made, so a stop loses at most the key in
    progress; ``stop()`` is asked before each key. Returns the lines written."""
    written = 0
    with LineAppender(path) as file:
        for key in keys:
            if stop():
                break
            if key in done:
                continue
            line = line_of(key)
            file.append(json.dumps(line, separators=(",", ":")))
            written += 1
            if progress is not None:
                progress(key, line)
    return written
