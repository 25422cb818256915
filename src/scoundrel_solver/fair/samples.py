"""How many dungeon orders PIMC may sample per decision, checked in one place.

The fair agent's endgame and :class:`~.pimc.PimcAgent` take the same count; the
agent checks it when it is built, before the exact solver it needs is loaded,
so this module imports nothing heavy.
"""

from __future__ import annotations

from typing import Final

from ..errors import SolverError

__all__ = ["MAX_SAMPLES", "check_samples"]

MAX_SAMPLES: Final = 10_000
"""The most dungeons sampled per decision: each is listed and solved per action, so the
count is bounded before anything is made (at 10,000 one decision already takes hours)."""


def check_samples(samples: object, name: str = "samples") -> None:
    """Raise :class:`SolverError`, naming ``name``, unless ``samples`` is an int 1..MAX_SAMPLES."""
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= MAX_SAMPLES:
        raise SolverError(f"{name} {samples!r:.40} must be an integer 1..{MAX_SAMPLES:,}")
