"""The transposition table: fixed-size arrays the kernel reads and writes.

Its size is set once (``mib``); it never grows. Each solve gets a fresh
generation stamp, so one table serves many solves without being cleared.
"""

from __future__ import annotations

import numpy as np

from ._kernel import BUCKET, HEALTHS

__all__ = ["DEFAULT_TABLE_MIB", "TranspositionTable"]

DEFAULT_TABLE_MIB = 256
_BYTES_PER_SLOT = 5 * 8 + 2 * 2 * 21 + 4 + 4


class TranspositionTable:
    """Open-addressed, 4-way bucketed table of proven bounds.

    An entry is keyed by the position without its health and holds, for each
    health, the best proven lower and upper bound on the value.
    """

    def __init__(self, mib: int = DEFAULT_TABLE_MIB) -> None:
        if not isinstance(mib, int) or mib < 1:
            raise ValueError(f"table size {mib!r} MiB must be a positive integer")
        slots = max(BUCKET, (mib << 20) // _BYTES_PER_SLOT)
        buckets = 1 << (slots // BUCKET).bit_length() - 1
        self.mib = mib
        self.slots = buckets * BUCKET
        self.bucket_mask = buckets - 1
        self.keys = np.zeros((self.slots, 5), np.int64)
        # Bounds on the value for each health 0..20 (index 0 unused).
        self.low = np.zeros((self.slots, HEALTHS), np.int16)
        self.high = np.zeros((self.slots, HEALTHS), np.int16)
        self.stamp = np.zeros(self.slots, np.uint32)
        self.work = np.zeros(self.slots, np.uint32)
        self._generation = 0

    def next_stamp(self) -> int:
        """A stamp no live entry carries: entries of earlier solves read as empty."""
        self._generation += 1
        if self._generation >= 1 << 32:
            self.stamp[:] = 0
            self._generation = 1
        return self._generation

    @property
    def nbytes(self) -> int:
        return int(
            self.keys.nbytes + self.low.nbytes + self.high.nbytes + self.stamp.nbytes
            + self.work.nbytes
        )
