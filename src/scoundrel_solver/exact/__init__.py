"""The exact search: the best score a player who sees the whole dungeon can reach.

A peer of :mod:`scoundrel_solver.fair` (which never sees the dungeon order).

- :mod:`.solve`: the facade (validate, convert once, run the kernel, explain);
  :class:`.result.SolveResult` is what it returns;
- :mod:`._kernel`: the numba search, a room at a time, over the packed rows of
  :mod:`._layout`, pruned by the bound of :mod:`._phi`;
- :mod:`.table`: the transposition table the kernel probes;
- :mod:`.version`: the solver's version, checked by its fingerprint.

Its slow twins (a plain-Python bound and a brute force over the library's own
rules), which only the tests use, are ``tests/naive/bound.py`` and ``brute.py``.
"""

from .result import SolveResult
from .solve import is_winnable, solve, solve_value

__all__ = ["SolveResult", "is_winnable", "solve", "solve_value"]
