"""The bound's full-deck stage: one known deal's best penalised line.

The deal's search (``bound.deal``) against the small-deck bound it must reproduce
when every chance step is penalised (``upper_bound``: the mean over the orders),
and against the exact solver with ``V = 0`` for any number of penalised steps.
The fast ``V`` against their twins: ``tests/test_bound_net.py``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from scoundrel_core import Card, State
from scoundrel_core.info import ChanceNode, InfoState, observe
from scoundrel_solver.bound import upper_bound
from scoundrel_solver.bound.deal import MAX_STEPS, deal_bound, opening_node
from scoundrel_solver.bound.orders import distinct_orders
from scoundrel_solver.bound.penalty import Penalties
from scoundrel_solver.bound.values import OneRoom, Zero, charges_for, one_room_value
from scoundrel_solver.errors import SolverError
from scoundrel_solver.exact import is_winnable

POOL = list(sc.parse_deck("2C 3C 5C 9C KC 2S 3S 5S 9S QS 2D 5D 8D 3H 6H 9H", partial=True))
RULES = [("classic", "strict"), ("hard", "strict"), ("classic", "equal")]
Value = Callable[[InfoState], float]


def deck_of(lo: int, hi: int) -> st.SearchStrategy[list[Card]]:
    return st.integers(lo, hi).flatmap(
        lambda n: st.lists(st.sampled_from(POOL), min_size=n, max_size=n, unique=True))


def blind_table(seed: int) -> Value:
    """A random number per information state, blind to suits (as the one-room V is)."""

    def kv(cards: object) -> str:
        return " ".join(f"{c.kind.name}{c.value}" for c in cards)  # type: ignore[attr-defined]

    def v(info: InfoState) -> float:
        unseen = sorted(info.unseen, key=lambda c: (c.kind, c.value))
        key = (f"{seed}|{kv(info.room)}|{kv(unseen)}|{kv(info.bottom)}|{info.health}|"
               f"{info.weapon_value}|{info.last_kill}|{info.potion_used}|"
               f"{info.resolved_in_room}|{info.fled_last}")
        return random.Random(key).uniform(-1.0, 1.0)

    return v


@given(deck_of(4, 5), st.one_of(st.integers(0, 10**6).map(blind_table), st.just("one-room")),
       st.sampled_from(RULES))
@settings(max_examples=12, deadline=None)
def test_every_step_penalised_is_the_small_deck_bound(
    deck: list[Card], value: Value | str, rules: tuple[str, str]
) -> None:
    # the mean over a deck's orders of the deal's term is upper_bound's, when the
    # search penalises more chance steps than any line of a small deck has
    variant, wear = rules
    total = weight = 0.0
    opening_mean = None
    for order, times in distinct_orders(deck):
        s = sc.new_game(deck=order, partial=True, variant=variant, weapon_rule=wear)
        charges = charges_for(value)
        if opening_mean is None:
            opening_mean = charges.mean(opening_node(s))
        total += times * deal_bound(s, charges, MAX_STEPS, opening_mean).value
        weight += times
    fn = one_room_value if value == "one-room" else value
    assert not isinstance(fn, str)
    assert total / weight == pytest.approx(upper_bound(deck, fn, variant, wear), abs=1e-9)


@given(deck_of(4, 8), st.integers(0, MAX_STEPS), st.sampled_from(RULES))
@settings(max_examples=25, deadline=None)
def test_no_value_is_the_exact_solver_for_any_steps(
    deck: list[Card], steps: int, rules: tuple[str, str]
) -> None:
    variant, wear = rules
    s = sc.new_game(deck=deck, partial=True, variant=variant, weapon_rule=wear)
    got = deal_bound(s, Zero(), steps)
    assert got.value == float(bool(is_winnable(s)))
    assert got.winnable is bool(is_winnable(s))


@pytest.mark.parametrize("seed", [0, 7, 11])
def test_full_deals_without_value_are_the_exact_solver(seed: int) -> None:
    for variant in ("classic", "hard"):
        s = sc.new_game(seed=seed, variant=variant)
        got = deal_bound(s, Zero(), 1)
        assert got.value == float(bool(is_winnable(s))) and got.opening == 0.0


def test_a_cut_short_solve_counts_as_a_win() -> None:
    # hard/strict seed 1 is lost: with a one-node limit no solve finishes, and
    # every line the search meets is counted won, which only raises the bound
    s = sc.new_game(seed=1, variant="hard")
    assert is_winnable(s) is False
    got = deal_bound(s, Zero(), 1, max_nodes=1)
    assert got.unproven > 0 and got.value == 1.0


def test_refusals_name_the_bad_input() -> None:
    s = sc.new_game(seed=0)
    with pytest.raises(SolverError, match="steps 9 must be"):
        deal_bound(s, Zero(), MAX_STEPS + 1)
    with pytest.raises(SolverError, match="easy"):
        deal_bound(sc.new_game(seed=0, variant="easy"), Zero(), 1)
    with pytest.raises(SolverError, match="unknown value 'two-room'"):
        charges_for("two-room")
    with pytest.raises(SolverError, match="not callable"):
        charges_for(3)  # type: ignore[arg-type]


def brute_deal(s: State, info: InfoState, charges: Penalties | OneRoom, left: int) -> float:
    """The deal's best line by plain recursion: every line, no cut, no memo."""
    if s.is_over:
        return 1.0 if s.health > 0 else 0.0
    best = -float("inf")
    for a in sc.legal_actions(s):
        s2 = sc.apply(s, a)
        y = info.apply(a)
        if isinstance(y, ChanceNode):
            after = observe(info, a, s2)
            penalty = charges.value(after) - charges.mean(y)
            rest = (float(bool(is_winnable(s2))) if left == 1
                    else brute_deal(s2, after, charges, left - 1))
            best = max(best, rest - penalty)
        else:
            best = max(best, brute_deal(s2, y, charges, left))
    return best


@given(deck_of(5, 8), st.integers(0, 10**6), st.integers(1, 3), st.sampled_from(RULES))
@settings(max_examples=25, deadline=None)
def test_the_cut_at_the_last_step_changes_no_deal(
    deck: list[Card], seed: int, steps: int, rules: tuple[str, str]
) -> None:
    variant, wear = rules
    s = sc.new_game(deck=deck, partial=True, variant=variant, weapon_rule=wear)
    charges = Penalties(blind_table(seed))
    got = deal_bound(s, charges, steps, opening_mean=0.0)
    want = brute_deal(s, InfoState.initial(s), charges, steps)
    assert got.best == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize(("seed", "variant"), [(2, "classic"), (5, "hard")])
def test_the_cut_changes_no_full_deal(seed: int, variant: str) -> None:
    s = sc.new_game(seed=seed, variant=variant)
    charges = OneRoom()
    got = deal_bound(s, charges, 1, opening_mean=0.0)
    assert got.best == pytest.approx(brute_deal(s, InfoState.initial(s), charges, 1), abs=1e-12)
