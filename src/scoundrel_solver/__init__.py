"""scoundrel_solver: what plays and measures Scoundrel, over the rules of :mod:`scoundrel_core`.

- :mod:`.exact`: the exact perfect-information search. ``solve(game_or_deck)``
  returns the best score a player who sees the whole dungeon can reach, proven
  by the search, with one line of play that reaches it;
- :mod:`.fair`: the fair agent, which sees only what a player sees, and its baselines;
- :mod:`.bound`: a proven upper bound on what any fair player wins, on small decks;
- :mod:`.runs`: runs over many deals and the files they leave (seed ranges,
  resumable results files, the one summary of many games);
- :mod:`.census`: exact results for whole ranges of deals, kept in SQLite;
- :mod:`.play` and :mod:`.web`: playing in the terminal and in the browser;
- :mod:`.cli`: every command; :mod:`.provenance`: which revision of a search made
  a result (declared versions checked by fingerprints) and where a published file
  came from.

:class:`SolverError` (:mod:`.errors`) is the one error of this package's options.
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
