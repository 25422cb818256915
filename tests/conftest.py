"""Shared fixtures."""

from __future__ import annotations

import pytest

import scoundrel_core as sc


@pytest.fixture(scope="session")
def warm_solver() -> None:
    """Run the solver once per variant so its numba kernels compile before any test times it.

    Request it (``pytestmark = pytest.mark.usefixtures("warm_solver")``) in modules
    that call ``scoundrel_solver.solve``; hypothesis deadlines and benchmarks then
    measure solving, not compiling.
    """
    from scoundrel_solver import solve

    for variant in sc.FLEE_RULES:
        for weapon_rule in sc.WEAPON_RULES:
            small = sc.new_game(
                deck="5C 9D 3H QS 2S 7H", partial=True, variant=variant, weapon_rule=weapon_rule
            )
            solve(small, variant=variant, weapon_rule=weapon_rule)
    solve(0, variant="classic", max_nodes=1000)
