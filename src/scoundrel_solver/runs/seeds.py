"""Ranges of deal seeds, ``A:B``, kept lazy.

A seed range may span the whole 64-bit seed space (``0:18446744073709551616``):
Python's ``range`` would do for iteration, but ``len()`` of such a range
overflows, and a list of it would not fit in memory. ``SeedRange`` holds only
its two ends; commands that walk a range take it chunk by chunk.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import scoundrel_core as sc

__all__ = ["SeedRange", "parse_seed_range"]

_SEED_SPACE = sc.MAX_SEED + 1  # 2**64: one past the last seed


@dataclass(frozen=True)
class SeedRange:
    """The seeds ``start`` .. ``stop - 1``; ``count`` may exceed ``sys.maxsize``.

    >>> r = parse_seed_range("10:13")
    >>> list(r), r.count, 12 in r, 13 in r
    ([10, 11, 12], 3, True, False)
    >>> parse_seed_range("0:18446744073709551616").count == 2**64
    True
    """

    start: int
    stop: int

    def __post_init__(self) -> None:
        if not 0 <= self.start < self.stop <= _SEED_SPACE:
            raise sc.SeedError(
                f"bad seed range {self.start}:{self.stop}: need 0 <= A < B <= 2**64"
            )

    @property
    def count(self) -> int:
        return self.stop - self.start

    def __contains__(self, seed: object) -> bool:
        return isinstance(seed, int) and self.start <= seed < self.stop

    def __iter__(self) -> Iterator[int]:
        seed = self.start
        while seed < self.stop:
            yield seed
            seed += 1

    def chunks(self, size: int) -> Iterator[SeedRange]:
        """Consecutive sub-ranges of at most ``size`` seeds, made one at a time."""
        lo = self.start
        while lo < self.stop:
            hi = min(lo + size, self.stop)
            yield SeedRange(lo, hi)
            lo = hi

    def __str__(self) -> str:
        return f"{self.start}:{self.stop}"


def parse_seed_range(text: str) -> SeedRange:
    """``A:B`` (seeds A up to B-1) or a single seed ``N``; a SeedError names the text."""
    # Not stripped: " 42" is refused here as in --seed (parse_seed_number), one rule for both.
    lo_text, colon, hi_text = text.partition(":")
    try:
        lo = sc.parse_seed_number(lo_text)
        hi = sc.parse_seed_number(hi_text) if colon else lo + 1
    except sc.SeedError:
        raise sc.SeedError(
            f"bad seed range {sc.excerpt(text)}: expected A:B or N, in decimal digits 0-9"
        ) from None
    if not 0 <= lo < hi <= _SEED_SPACE:
        raise sc.SeedError(f"bad seed range {sc.excerpt(text)}: need 0 <= A < B <= 2**64")
    return SeedRange(lo, hi)
