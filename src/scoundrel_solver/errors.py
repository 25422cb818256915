"""The solver's error: a :class:`scoundrel_core.ScoundrelError` like the core's.

So a caller catches one family (``except sc.ScoundrelError``) for bad decks,
seeds, positions and solver options alike, and the message names the option.
"""

from __future__ import annotations

from scoundrel_core import ScoundrelError

__all__ = ["SolverError"]


class SolverError(ScoundrelError):
    """A solver option that is out of range or of the wrong type (named in the message)."""
