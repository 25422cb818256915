"""scoundrel_solver: exact perfect-information search for Scoundrel.

``solve(game_or_deck)`` returns the best score a player who sees the whole
dungeon can reach, proven by the search, with one line of play that reaches it.
The search lives in :mod:`scoundrel_solver.exact`; the fair agent, which sees
only what a player sees, in :mod:`scoundrel_solver.fair`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scoundrel_core import __version__ as __version__

from .errors import SolverError

if TYPE_CHECKING:
    from .exact import SolveResult, solve

__all__ = ["SolveResult", "SolverError", "solve"]


def __getattr__(name: str) -> Any:
    # Loaded on first use: the exact search imports numba and its kernel, which a
    # module needing only the fair agent's pure-Python parts should not pay for.
    if name in ("SolveResult", "solve"):
        from . import exact

        return getattr(exact, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
