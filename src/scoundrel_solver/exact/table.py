"""The transposition table: fixed-size arrays the kernel reads and writes.

Its size is set once (``mib``); it never grows. Each solve gets a fresh
generation stamp, so one table serves many solves without being cleared.
"""

from __future__ import annotations

import os
from numbers import Integral

import numpy as np

from ..errors import SolverError
from ._kernel import BUCKET, HEALTHS

__all__ = ["DEFAULT_TABLE_MIB", "TranspositionTable", "check_table_mib", "machine_mib"]

DEFAULT_TABLE_MIB = 256
"""The transposition table's default size in MiB (``--table-mib``)."""
_BYTES_PER_SLOT = 5 * 8 + 2 * 2 * 21 + 8


def machine_mib() -> int | None:
    """The machine's physical memory in MiB, None where the system does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") >> 20
    except (AttributeError, ValueError, OSError):
        return None


def check_table_mib(mib: object, name: str = "table_mib") -> int:
    """``mib`` as an int if a table of that many MiB fits in this machine's memory.

    Checked before any search starts, so a size too big fails at once with a
    message naming the option (``name``), not with an allocation error later.

    >>> check_table_mib(64)
    64
    >>> check_table_mib(0)
    Traceback (most recent call last):
    ...
    scoundrel_solver.errors.SolverError: table_mib 0 must be a positive integer (MiB)
    """
    if isinstance(mib, bool) or not isinstance(mib, Integral) or int(mib) < 1:
        raise SolverError(f"{name} {mib!r} must be a positive integer (MiB)")
    mib = int(mib)
    total = machine_mib()
    if total is not None and mib > total:
        raise SolverError(
            f"{name} {mib} MiB is more than this machine's memory ({total} MiB)"
        )
    return int(mib)


class TranspositionTable:
    """Open-addressed, 4-way bucketed table of proven bounds.

    An entry is keyed by the position without its health and holds, for each
    health, the best proven lower and upper bound on the value.
    """

    def __init__(self, mib: int = DEFAULT_TABLE_MIB) -> None:
        mib = check_table_mib(mib)
        slots = max(BUCKET, (mib << 20) // _BYTES_PER_SLOT)
        buckets = 1 << (slots // BUCKET).bit_length() - 1
        self.mib = mib
        self.slots = buckets * BUCKET
        self.bucket_mask = buckets - 1
        try:
            self.keys = np.zeros((self.slots, 5), np.int64)
            # Per health 0..20 (index 0 unused), the best proven lower bound on
            # the value, then the best upper bound (``bounds[slot, LOW/HIGH, h]``):
            # a lookup reads both, so they share cache lines.
            self.bounds = np.zeros((self.slots, 2, HEALTHS), np.int16)
            # The solve's stamp (low 32 bits) and the work done under the entry.
            self.stamp = np.zeros(self.slots, np.int64)
        except MemoryError:
            raise SolverError(f"table_mib {mib}: not enough free memory for the table") from None
        self._generation = 0
        self.wraps = 0
        """How often the stamps ran out and every entry was dropped: a stamp handed out
        before a wrap may be handed out again after it."""

    def next_stamp(self) -> int:
        """A stamp no live entry carries: entries of earlier solves read as empty."""
        self._generation += 1
        if self._generation >= 1 << 32:
            self.stamp[:] = 0
            self._generation = 1
            self.wraps += 1
        return self._generation

    @property
    def nbytes(self) -> int:
        return int(self.keys.nbytes + self.bounds.nbytes + self.stamp.nbytes)
