"""A small progress bar on stderr for long runs (no dependency)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["Progress"]


class Progress:
    """``with Progress(total, "solving") as bar: bar.advance(note="...")``.

    Draws at most ten times a second; silent when ``enabled`` is false.
    """

    def __init__(self, total: int, label: str, enabled: bool = True,
                 stream: TextIO | None = None) -> None:
        self.total = total
        self.label = label
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.done = 0
        self.start = time.perf_counter()
        self._drawn = 0.0

    def advance(self, n: int = 1, note: str = "") -> None:
        self.done += n
        now = time.perf_counter()
        if self.enabled and (now - self._drawn > 0.1 or self.done >= self.total):
            self._drawn = now
            self._draw(now, note)

    def _draw(self, now: float, note: str) -> None:
        width = 24
        frac = self.done / self.total if self.total else 1.0
        bar = "#" * int(width * frac) + "-" * (width - int(width * frac))
        rate = self.done / max(now - self.start, 1e-9)
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        self.stream.write(
            f"\r{self.label} [{bar}] {self.done}/{self.total} {rate:.1f}/s eta {eta:.0f}s {note}   "
        )
        self.stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
