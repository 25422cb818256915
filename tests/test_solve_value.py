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
from scoundrel_solver.exact.solve import SolveGroup, is_winnable, solve_value

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


@pytest.mark.parametrize("variant", sc.FLEE_RULES)
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_group_of_solves_answers_as_solves_on_their_own(variant: str,
                                                          data: st.DataObject) -> None:
    """A decision's positions (every action, on several deals of the same cards) solved in
    one SolveGroup, win questions and values (some from a first guess) interleaved in a
    drawn order, give what each gives solved alone: what a group keeps in the table
    changes no answer."""
    n = data.draw(st.integers(8, 16), label="cards")
    cards = data.draw(st.lists(st.sampled_from(sc.FULL_DECK), min_size=n, max_size=n,
                               unique=True), label="deck")
    rule = data.draw(st.sampled_from(sc.WEAPON_RULES), label="weapon rule")
    positions = []
    for shift in range(data.draw(st.integers(1, 3), label="deals")):
        deck = cards[:4] + cards[4:][shift:] + cards[4:][:shift]  # one room, other orders
        s = sc.new_game(deck=deck, partial=True, variant=variant, weapon_rule=rule)
        positions += [t for a in sc.legal_actions(s) if not (t := sc.apply(s, a)).is_over]
    questions = [(p, kind) for p in positions
                 for kind in ("win", "value", "value given", "value guessed")]
    order = data.draw(st.permutations(range(len(questions))), label="order")
    group = SolveGroup()
    for i in order:
        p, kind = questions[i]
        if kind == "win":
            assert is_winnable(p, group=group) is is_winnable(p)
        elif kind == "value guessed":
            # a first guess at the value (another action's score) changes no answer
            guess = data.draw(st.integers(-200, 40), label="guess")
            assert solve_value(p, group=group, guess=guess) == solve_value(p)
        else:
            won = is_winnable(p) if kind == "value given" else None
            assert solve_value(p, winnable=won, group=group) == solve_value(p, winnable=won)


def test_a_group_takes_new_stamps_when_the_table_wraps_or_changes() -> None:
    """A stamp handed out before the table's stamps wrapped around may be handed to another
    solve after it, so a group must not keep it; nor a stamp of another table."""
    from scoundrel_solver.exact.table import TranspositionTable

    table = TranspositionTable(1)
    group = SolveGroup()
    win, value = group.stamp(table, "win"), group.stamp(table, "value")
    assert win != value and group.stamp(table, "win") == win
    table._generation = (1 << 32) - 1
    table.next_stamp()  # wraps: stamps start again from 1
    assert table.wraps == 1
    again = group.stamp(table, "win")
    assert again != win and again == table._generation
    other = TranspositionTable(1)
    assert group.stamp(other, "win") == other._generation == 1
