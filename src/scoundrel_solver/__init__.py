"""scoundrel_solver: exact perfect-information search for Scoundrel.

``solve(game_or_deck)`` returns the best score a player who sees the whole
dungeon can reach, proven by the search, with one line of play that reaches it.
"""

from scoundrel_core._version import __version__ as __version__

from .errors import SolverError
from .result import SolveResult
from .solve import solve

__all__ = ["SolveResult", "SolverError", "solve"]
