"""The information-relaxation bound of small decks (``scoundrel_solver.bound``).

Against its slow twin (``naive.relaxation``: every order of the cards, every
line, each penalty's mean over the worlds the player cannot tell apart), and
against what it bounds: never below the exact fair optimum for any ``V`` (weak
duality), equal to it with the exact fair value as ``V`` (strong duality), and
the perfect-information share of the exact solver with ``V = 0``.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Hashable

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from naive.fair import brute_value
from naive.relaxation import brute_bound
from scoundrel_core import Card
from scoundrel_core.info import InfoState, observe
from scoundrel_solver import solve
from scoundrel_solver.bound import MAX_CARDS, upper_bound
from scoundrel_solver.bound.orders import distinct_orders
from scoundrel_solver.errors import SolverError
from scoundrel_solver.exact import is_winnable
from scoundrel_solver.fair.optimum import fair_optimum

# Few values, both monster suits: alike cards (2C and 2S) come up often.
POOL = list(sc.parse_deck("2C 3C 5C 9C KC 2S 3S 5S 9S QS 2D 5D 8D 3H 6H 9H", partial=True))
RULES = [("classic", "strict"), ("hard", "strict"), ("classic", "equal")]
Value = Callable[[InfoState], float]


def deck_of(lo: int, hi: int) -> st.SearchStrategy[list[Card]]:
    return st.integers(lo, hi).flatmap(
        lambda n: st.lists(st.sampled_from(POOL), min_size=n, max_size=n, unique=True))


def text_table(seed: int) -> Value:
    """A random number for every information state, keyed on its whole text (suits too)."""
    return lambda info: random.Random(f"{seed}|{info.to_text()}").uniform(-1.0, 1.0)


def blind_table(seed: int) -> Value:
    """A random number for every information state, blind to the suits of alike cards."""

    def kv(cards: object) -> str:
        return " ".join(f"{c.kind.name}{c.value}" for c in cards)  # type: ignore[attr-defined]

    def v(info: InfoState) -> float:
        unseen = sorted(info.unseen, key=lambda c: (c.kind, c.value))
        key = (f"{seed}|{kv(info.room)}|{kv(unseen)}|{kv(info.bottom)}|{info.health}|"
               f"{info.weapon_value}|{info.last_kill}|{info.potion_used}|"
               f"{info.resolved_in_room}|{info.fled_last}")
        return random.Random(key).uniform(-1.0, 1.0)

    return v


def linear(a: float, b: float, c: float, d: float) -> Value:
    """A random linear function of what the player holds: health, weapon, cards left."""
    return lambda info: (a * info.health + b * info.weapon_value + c * len(info.unseen)
                         + d * info.monsters_left())


values = st.one_of(
    st.integers(0, 10**6).map(blind_table),
    st.tuples(*[st.floats(-1, 1)] * 4).map(lambda t: linear(*t)),
)


@given(deck_of(3, 5), values, st.sampled_from(RULES), st.sampled_from(["win", "score"]))
@settings(max_examples=40, deadline=None)
def test_the_bound_is_its_brute_force_twin(
    deck: list[Card], value: Value, rules: tuple[str, str], objective: str
) -> None:
    variant, wear = rules
    got = upper_bound(deck, value, variant, wear, objective)
    want = brute_bound(deck, value, f"{variant}/{wear}", objective)
    assert got == pytest.approx(float(want), abs=1e-9)


@given(deck_of(3, 5), st.integers(0, 10**6), st.sampled_from(RULES))
@settings(max_examples=25, deadline=None)
def test_any_value_of_decks_without_alike_cards_is_the_twins(
    deck: list[Card], seed: int, rules: tuple[str, str]
) -> None:
    # with alike cards the bound reads V on the fair tree's states (orders.py), the twin
    # on every suit: the same for a V blind to suits, and for any V without alike cards
    assume(len({(c.kind, c.value) for c in deck}) == len(deck))
    variant, wear = rules
    got = upper_bound(deck, text_table(seed), variant, wear)
    assert got == pytest.approx(float(brute_bound(deck, text_table(seed), f"{variant}/{wear}")),
                                abs=1e-9)


@given(deck_of(4, 6), st.one_of(values, st.integers(0, 10**6).map(text_table)),
       st.sampled_from(RULES))
@settings(max_examples=25, deadline=None)
def test_weak_duality_no_value_bounds_below_the_fair_optimum(
    deck: list[Card], value: Value, rules: tuple[str, str]
) -> None:
    variant, wear = rules
    best = fair_optimum(deck, variant, wear)
    assert upper_bound(deck, value, variant, wear) >= best.win - 1e-9
    assert upper_bound(deck, value, variant, wear, "score") >= best.score - 1e-9


@given(deck_of(4, 6), st.sampled_from(RULES))
@settings(max_examples=8, deadline=None)
def test_strong_duality_the_exact_fair_value_gives_the_fair_optimum(
    deck: list[Card], rules: tuple[str, str]
) -> None:
    variant, wear = rules
    best = fair_optimum(deck, variant, wear)
    memo: dict[Hashable, tuple[float, float, float]] = {}  # one deck, one rule set
    win = upper_bound(deck, lambda info: fair_optimum(info, memo=memo).win, variant, wear)
    score = upper_bound(deck, lambda info: fair_optimum(info).score, variant, wear, "score")
    assert win == pytest.approx(best.win, abs=1e-9)
    assert score == pytest.approx(best.score, abs=1e-9)


@given(deck_of(1, 6), st.sampled_from(RULES))
@settings(max_examples=15, deadline=None)
def test_no_value_is_the_perfect_information_share_exactly(
    deck: list[Card], rules: tuple[str, str]
) -> None:
    variant, wear = rules
    games = [sc.new_game(deck=o, partial=True, variant=variant, weapon_rule=wear)
             for o in itertools.permutations(deck)]
    won = sum(bool(is_winnable(s)) for s in games)
    scores = sum(solve(s).best_score for s in games)
    assert upper_bound(deck, None, variant, wear) == won / len(games)
    assert upper_bound(deck, None, variant, wear, "score") == scores / len(games)


@given(st.lists(st.sampled_from(POOL), min_size=1, max_size=6, unique=True))
@settings(max_examples=20, deadline=None)
def test_distinct_orders_stand_for_every_order(deck: list[Card]) -> None:
    orders = list(distinct_orders(deck))
    assert sum(m for _, m in orders) == math.factorial(len(deck))
    seqs = {tuple((c.kind, c.value) for c in o) for o, _ in orders}
    assert len(seqs) == len(orders)  # each sequence of kinds and values once
    every = {tuple((c.kind, c.value) for c in o) for o in itertools.permutations(deck)}
    assert seqs == every


def test_refusals_name_the_bad_input() -> None:
    big = " ".join(map(str, POOL[: MAX_CARDS + 1]))
    with pytest.raises(SolverError, match=f"at most {MAX_CARDS} cards"):
        upper_bound(big)
    with pytest.raises(SolverError, match="easy"):
        upper_bound("5C 3H 7D 2S 9C", variant="easy")
    with pytest.raises(SolverError, match="objective 'wins'"):
        upper_bound("5C 3H 7D 2S 9C", objective="wins")
    with pytest.raises(SolverError, match="not callable"):
        upper_bound("5C 3H 7D 2S 9C", value=3)  # type: ignore[arg-type]
    with pytest.raises(SolverError, match="finite number"):
        upper_bound("5C 3H 7D 2S 9C", value=lambda info: math.nan)
    with pytest.raises(SolverError, match="finite number"):
        upper_bound("5C 3H 7D 2S 9C", value=lambda info: "high")  # type: ignore[arg-type,return-value]
    with pytest.raises(SolverError, match="neither a deck text nor a list"):
        upper_bound(123)  # type: ignore[arg-type]
    with pytest.raises(sc.ScoundrelError, match="5C"):
        upper_bound("5C 3H 7D 2S 5C")  # the library's own check of the deck
    with pytest.raises(sc.ScoundrelError, match="empty"):
        upper_bound([])


@given(st.lists(st.sampled_from(POOL), min_size=5, max_size=7, unique=True),
       st.integers(0, 10**6))
@settings(max_examples=8, deadline=None)
def test_fair_optimum_from_any_position_is_the_world_enumeration(
    deck: list[Card], seed: int
) -> None:
    # a position part way through a game: the fair value from it, against every
    # world the player cannot tell apart (naive.fair.brute_value)
    rng = random.Random(seed)
    rng.shuffle(deck)
    s = sc.new_game(deck=deck, partial=True)
    info = InfoState.initial(s)
    for _ in range(rng.randrange(4)):
        if s.is_over:
            break
        a = rng.choice(sc.legal_actions(s))
        s2 = sc.apply(s, a)
        info, s = observe(info, a, s2), s2
    assume(not s.is_over)
    want = brute_value(s, info.bottom)
    assert fair_optimum(info).score == pytest.approx(float(want), abs=1e-9)
    memo: dict[Hashable, tuple[float, float, float]] = {}
    whole = fair_optimum(deck, memo=memo)  # a walk of the whole deck fills the memo
    again = fair_optimum(info, memo=memo)
    assert again.score == pytest.approx(float(want), abs=1e-9)
    assert again.win == pytest.approx(fair_optimum(info).win, abs=1e-12)
    assert whole == fair_optimum(deck)
