"""The fast solver against the brute-force oracle, and its lines against the rules.

``solve`` must be exact: on small generated deals (every variant and weapon rule,
any starting health, also positions in the middle of a game) it proves the same
best score as :func:`naive.brute.brute_force`, and the line it reports
replays legally with :func:`scoundrel_core.play_line` to a finished game of that
score. On full deals, the line replays to the reported score, and a search cut
short by a limit still returns a legal, complete line.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from naive.brute import brute_force
from scoundrel_solver import SolveResult, solve

pytestmark = pytest.mark.usefixtures("warm_solver")

COMBOS = [(v, w) for v in sc.FLEE_RULES for w in sc.WEAPON_RULES]

# The largest reduced deck per variant: brute force stays well under a second
# on these (easy's flee cycles and classic's flees make their graphs bigger).
MAX_CARDS = {"classic": 9, "easy": 8, "hard": 12}

SETTINGS = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def solve_state(s: sc.State) -> SolveResult:
    v = s.variant
    return solve(s, variant=v.name, weapon_rule=v.weapon_rule)


def check_line(start: sc.State, result: SolveResult) -> sc.State:
    """The reported line replays from ``start`` to a finished game of the reported score."""
    end = sc.play_line(start, result.line)
    assert end.is_over, f"line {' '.join(result.line)!r} stops before the end: {end}"
    assert end.score == result.best_score, f"line scores {end.score}, reported {result.best_score}"
    assert result.upper_bound >= result.best_score
    # A win scores at least 1 and a loss at most 0. Without a proof, a line that
    # loses says nothing about whether a win exists, unless the bound rules it out.
    if result.best_score > 0:
        assert result.winnable is True
    elif result.proven or result.upper_bound <= 0:
        assert result.winnable is False
    else:
        assert result.winnable is None
    return end


def check_exact(start: sc.State) -> None:
    result = solve_state(start)
    best, _ = brute_force(start)
    assert result.proven, f"not proven: {start}"
    assert result.best_score == best, f"solver {result.best_score}, brute force {best}: {start}"
    assert result.upper_bound == best
    check_line(start, result)


def with_health(s: sc.State, health: int) -> sc.State:
    return sc.State.from_parts(dungeon=s.dungeon, room=s.room, health=health, variant=s.variant)


def draw_deal(data: st.DataObject, variant: str, weapon_rule: str) -> sc.State:
    # Draw the size first so that the largest decks come up as often as the small ones.
    n = data.draw(st.integers(4, MAX_CARDS[variant]), label="cards")
    cards = data.draw(
        st.lists(st.sampled_from(sc.FULL_DECK), min_size=n, max_size=n, unique=True), label="deck"
    )
    s = sc.new_game(deck=cards, partial=True, variant=variant, weapon_rule=weapon_rule)
    health = data.draw(st.integers(1, 20), label="health")
    return with_health(s, health)


@pytest.mark.parametrize(("variant", "weapon_rule"), COMBOS)
@SETTINGS
@given(data=st.data())
def test_small_deals_match_brute_force(variant: str, weapon_rule: str, data: st.DataObject) -> None:
    check_exact(draw_deal(data, variant, weapon_rule))


@pytest.mark.parametrize(("variant", "weapon_rule"), COMBOS)
@settings(SETTINGS, max_examples=80)
@given(data=st.data())
def test_positions_in_mid_game_match_brute_force(
    variant: str, weapon_rule: str, data: st.DataObject
) -> None:
    # Play a few random legal steps first: a weapon with or without a last
    # kill, a potion already drunk, cards resolved in the room, a room dealt by
    # a flee. Stop before the game ends.
    s = draw_deal(data, variant, weapon_rule)
    for _ in range(data.draw(st.integers(0, 6), label="steps")):
        a = data.draw(st.sampled_from(sc.legal_actions(s)), label="action")
        t = sc.apply(s, a)
        if t.is_over:
            break
        s = t
    check_exact(s)


@pytest.mark.parametrize("variant", sc.FLEE_RULES)
def test_tiny_decks_below_a_full_room(variant: str) -> None:
    # One to three cards: the first room is the whole deck and cannot be fled.
    for deck in ("5H", "9C", "7D 9C", "QS 2H 10D", "2H 3H 4H"):
        check_exact(sc.new_game(deck=deck, partial=True, variant=variant))


# Best scores of full hard deals, computed with brute_force (1 to 30 s each).
HARD_GOLDEN = {
    "strict": {0: 14, 1: -168, 2: 10, 3: -165, 4: 8},
    "equal": {0: 18, 1: 2, 2: 11, 3: -165, 4: 8},
}


@pytest.mark.slow
@pytest.mark.parametrize("weapon_rule", sc.WEAPON_RULES)
@pytest.mark.parametrize("seed", range(5))
def test_full_hard_deals(seed: int, weapon_rule: str) -> None:
    result = solve(seed, variant="hard", weapon_rule=weapon_rule)
    assert result.proven
    assert result.best_score == HARD_GOLDEN[weapon_rule][seed]
    check_line(sc.new_game(seed=seed, variant="hard", weapon_rule=weapon_rule), result)


# Best scores of full classic deals, computed once with solve() (proven, lines checked).
CLASSIC_GOLDEN = {0: 30, 1: 29, 2: 30}


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_full_classic_deals(seed: int) -> None:
    result = solve(seed, variant="classic")
    assert result.proven
    assert result.best_score == result.upper_bound == CLASSIC_GOLDEN[seed]
    check_line(sc.new_game(seed=seed, variant="classic"), result)


@pytest.mark.parametrize(("variant", "weapon_rule"), COMBOS)
def test_lines_of_full_deals_replay_to_their_score(variant: str, weapon_rule: str) -> None:
    # solve() builds its line from the kernel's moves without replaying it
    # through the rules: the replay is here, on many deals of every variant.
    seeds = range(30) if variant == "hard" else range(3, 9)
    for seed in seeds:
        result = solve(seed, variant=variant, weapon_rule=weapon_rule)
        assert result.proven
        check_line(sc.new_game(seed=seed, variant=variant, weapon_rule=weapon_rule), result)


def test_deck_text_seed_and_state_give_the_same_answer() -> None:
    deck = sc.format_deck(sc.deal(2))
    by_seed = solve(2, variant="hard")
    by_text = solve(deck, variant="hard")
    by_state = solve(sc.new_game(seed=2, variant="hard"), variant="hard")
    assert by_seed.best_score == by_text.best_score == by_state.best_score
    for result in (by_seed, by_text, by_state):
        check_line(sc.new_game(seed=2, variant="hard"), result)


def test_node_limit_returns_a_legal_line() -> None:
    start = sc.new_game(seed=0, variant="classic")
    result = solve(0, variant="classic", max_nodes=1)
    assert not result.proven
    assert result.stopped_by is not None
    check_line(start, result)


def test_time_limit_returns_a_legal_line() -> None:
    start = sc.new_game(seed=1, variant="classic")
    result = solve(1, variant="classic", max_seconds=1e-6)
    if not result.proven:
        assert result.stopped_by is not None
    check_line(start, result)


# -- easy: the question asked in two child orders in turn (solve._run_easy) -------------

_solve_module = importlib.import_module("scoundrel_solver.exact.solve")


@contextmanager
def easy_first_budget(nodes: int) -> Iterator[None]:
    """Let ``_run_easy`` switch child order after ``nodes`` nodes (and double from there)."""
    old = _solve_module.EASY_FIRST_BUDGET
    _solve_module.EASY_FIRST_BUDGET = nodes
    try:
        yield
    finally:
        _solve_module.EASY_FIRST_BUDGET = old


@settings(SETTINGS, max_examples=80)
@given(data=st.data(), budget=st.sampled_from([1, 3, 20]))
def test_easy_orders_in_turn_match_brute_force(data: st.DataObject, budget: int) -> None:
    # Budgets this small make nearly every question switch order, many times over.
    rule = data.draw(st.sampled_from(sc.WEAPON_RULES), label="weapon rule")
    with easy_first_budget(budget):
        check_exact(draw_deal(data, "easy", rule))


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), rule=st.sampled_from(sc.WEAPON_RULES),
       budget=st.sampled_from([50, 2_000]))
def test_easy_orders_in_turn_prove_the_usual_value_on_full_deals(
    seed: int, rule: str, budget: int
) -> None:
    start = sc.new_game(seed=seed, variant="easy", weapon_rule=rule)
    with easy_first_budget(10**15):  # never switches: the usual order alone
        usual = solve(seed, variant="easy", weapon_rule=rule)
    with easy_first_budget(budget):
        turns = solve(seed, variant="easy", weapon_rule=rule)
    assert usual.proven and turns.proven
    assert turns.best_score == usual.best_score
    check_line(start, turns)


def test_easy_orders_in_turn_keep_the_callers_node_limit() -> None:
    # Seed 49142 (easy/equal) needs about a million nodes: 30,000 stop it, in
    # the middle of the second order's turn, and the result says so.
    with easy_first_budget(20_000):
        r = solve(49142, variant="easy", weapon_rule="equal", max_nodes=30_000)
    assert not r.proven and r.stopped_by == "max_nodes"
    assert r.nodes <= 30_000 + 20_000 + 1024  # the limit, the rescue search, one check period
    check_line(sc.new_game(seed=49142, variant="easy", weapon_rule="equal"), r)
