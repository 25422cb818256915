"""Whole files written safely: checked before the work, replaced only when complete.

A record or an export is one file that is either the old one or the new one,
never half of the new one: it is written to a temporary file beside the
target, flushed to disk, and renamed over the target only when every byte is
down. A full disk, a write error or a crash leaves the previous file as it was
and no temporary file behind.

Targets are checked before any work (:func:`check_output`): an existing
target must be a regular file (renaming over ``/dev/null`` or a FIFO would
replace the device, and writing to ``/dev/full`` can never succeed), and the
directory must take a new file, which is tried for real (permissions,
read-only mounts and missing directories all show up, even for root).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from typing import Final

__all__ = ["OutputError", "check_output", "describe_os_error", "replacing"]

_PREFIX: Final = ".scoundrel-tmp-"


class OutputError(OSError):
    """An output that cannot be written; the message names it and says why."""


def describe_os_error(err: OSError) -> str:
    """Words for a failed write: a full disk says so plainly."""
    if err.errno in (errno.ENOSPC, errno.EDQUOT):
        return "disk full"
    return err.strerror or str(err)


def _directory(path: str) -> str:
    return os.path.dirname(os.path.abspath(path)) or "."


def check_output(path: str | os.PathLike[str], what: str) -> str:
    """The target as a str, or an :class:`OutputError` naming ``what`` and the path.

    Creates and removes one temporary file in the target's directory to prove
    it can be written there.
    """
    target = os.fspath(path)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as err:
        raise OutputError(f"cannot write {what} {target!r}: {err.strerror}") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise OutputError(f"cannot write {what} {target!r}: it is not a regular file")
    try:
        fd, probe = tempfile.mkstemp(prefix=_PREFIX, dir=_directory(target))
    except OSError as err:
        raise OutputError(
            f"cannot write {what} {target!r}: {describe_os_error(err)}"
        ) from None
    os.close(fd)
    os.unlink(probe)
    return target


def _mode_for(target: str) -> int:
    """The mode an existing file had, or what a new one would get (mkstemp makes 0600)."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mask = os.umask(0o22)
        os.umask(mask)
        return 0o666 & ~mask


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str], what: str) -> Iterator[str]:
    """Yield a temporary path beside ``path``; on a clean exit it replaces ``path``.

    Whatever goes wrong inside (an exception, a full disk when flushing) removes
    the temporary file and leaves ``path`` untouched; OSErrors become an
    :class:`OutputError` naming ``what`` and the path.

    >>> import pathlib, tempfile as t
    >>> d = pathlib.Path(t.mkdtemp())
    >>> with replacing(d / "a.txt", "file") as tmp:
    ...     _ = pathlib.Path(tmp).write_text("whole")
    >>> (d / "a.txt").read_text(), sorted(p.name for p in d.iterdir())
    ('whole', ['a.txt'])
    """
    target = check_output(path, what)
    fd, tmp = tempfile.mkstemp(prefix=_PREFIX, suffix=os.path.basename(target),
                               dir=_directory(target))
    os.close(fd)
    try:
        yield tmp
        with open(tmp, "rb+") as f:  # what the writer left in the OS cache goes to disk
            os.fsync(f.fileno())
        os.chmod(tmp, _mode_for(target))
        os.replace(tmp, target)
    except OSError as err:
        raise OutputError(f"cannot write {what} {target!r}: {describe_os_error(err)}; "
                          "the previous file, if any, is unchanged") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
