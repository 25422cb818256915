"""The solver's number-only entry points against the brute-force oracle and ``solve``.

``solve_value`` is ``solve`` without the line; ``is_winnable`` asks only "is the
best score above 0?" with one null-window question capped at 1 (PIMC asks it
for every sampled dungeon).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from naive.brute import brute_force
from scoundrel_solver import solve
from scoundrel_solver.errors import SolverError
from scoundrel_solver.exact.solve import is_winnable, solve_value

pytestmark = pytest.mark.usefixtures("warm_solver")

MAX_CARDS = {"classic": 9, "easy": 7, "hard": 11}


@pytest.mark.parametrize("variant", sc.FLEE_RULES)
@pytest.mark.parametrize("weapon_rule", sc.WEAPON_RULES)
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_small_positions_match_brute_force(
    variant: str, weapon_rule: str, data: st.DataObject
) -> None:
    n = data.draw(st.integers(3, MAX_CARDS[variant]), label="cards")
    cards = data.draw(
        st.lists(st.sampled_from(sc.FULL_DECK), min_size=n, max_size=n, unique=True), label="deck"
    )
    s = sc.new_game(deck=cards, partial=True, variant=variant, weapon_rule=weapon_rule)
    s = sc.State.from_parts(dungeon=s.dungeon, room=s.room, variant=s.variant,
                            health=data.draw(st.integers(1, 20), label="health"))
    for _ in range(data.draw(st.integers(0, 5), label="steps")):
        t = sc.apply(s, data.draw(st.sampled_from(sc.legal_actions(s)), label="action"))
        if t.is_over:
            break
        s = t
    best, _ = brute_force(s)
    assert solve_value(s) == best
    assert is_winnable(s) is (best > 0)
    assert solve_value(s, winnable=best > 0) == best


def test_full_deals_match_solve() -> None:
    for seed in (0, 1, 3, 5, 8):  # 3 and 8 are lost
        s = sc.new_game(seed=seed)
        r = solve(s)
        assert r.proven and solve_value(s) == r.best_score
        assert is_winnable(s) is r.winnable
        assert solve_value(s, winnable=r.winnable) == r.best_score


def test_node_limit_and_ended_games() -> None:
    s = sc.new_game(seed=3)  # needs tens of thousands of nodes
    assert solve_value(s, max_nodes=1) is None
    assert is_winnable(s, max_nodes=1) is None
    end = sc.play_line(sc.new_game(deck="5H", partial=True), "5H")
    for f in (solve_value, is_winnable):
        with pytest.raises(SolverError, match="running game"):
            f(end)
