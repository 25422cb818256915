"""Slow twins only the tests use: plain Python written to be obviously right, to compare
the fast engines with.

- :mod:`.brute`: the exact solver's oracle, the best score by exhaustive search;
- :mod:`.bound`: the exact solver's upper bound, as a plain loop over a ``State``;
- :mod:`.relaxation`: the information-relaxation bound (``scoundrel_solver.bound``) by
  brute force over every order and line;
- :mod:`.fair`: the fair search's twins, an ordered card-by-card expectimax and a
  world-by-world brute force.

The tests import them as ``naive.<module>`` (pytest puts ``tests/`` on the path, as for
``conftest``). The rules' own slow twin, :mod:`scoundrel_core.reference`, stays in the
library: a user may call it (see its docstring).
"""
