"""The numba search against its plain-Python twins, and exactness on small decks."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from naive.fair import brute_outcomes, brute_value, twin_values
from scoundrel_core import FULL_DECK, State
from scoundrel_core.info import InfoState, observe
from scoundrel_solver.fair import _kernel as K
from scoundrel_solver.fair.agent import FairAgent, card_type
from scoundrel_solver.fair.config import configs_with
from scoundrel_solver.fair.leaf import (
    DEFAULT_WEIGHTS,
    FEATURES,
    leaf_estimate,
    leaf_value,
    net_size,
    weights_array,
)

PAR = weights_array()


def _model(seed: int) -> tuple[float, ...]:
    """Random win-model coefficients of plausible size, for the twins' tests."""
    rng = random.Random(seed)
    return tuple(rng.uniform(-0.5, 0.5) for _ in FEATURES)


def _net_model(seed: int, hidden: int = 5) -> tuple[float, ...]:
    """Random logistic coefficients followed by a random win net of ``hidden`` units: a
    win model whose net decides (``leaf.weights_array``)."""
    rng = random.Random(seed)
    net = [rng.uniform(-0.3, 0.3) for _ in range(net_size(hidden))]
    return (*_model(seed), float(hidden), *net)


def _position(
    seed: int, n_cards: int, steps: int, variant: str
) -> tuple[State, InfoState]:
    """A reduced deal played randomly for a few steps, with the player's knowledge."""
    rng = random.Random(seed)
    deck = rng.sample(FULL_DECK, n_cards)
    s = sc.new_game(deck=deck, variant=variant, partial=True)
    info = InfoState.initial(s)
    for _ in range(steps):
        acts = sc.legal_actions(s)
        if not acts:
            break
        a = rng.choice(acts)
        nxt = sc.apply(s, a)
        info = observe(info, a, nxt)
        s = nxt
    return s, info


@given(
    st.integers(0, 10**6),
    st.integers(5, 9),
    st.integers(0, 4),
    st.sampled_from(["classic", "easy", "hard", "classic/equal"]),
    st.integers(0, 2),
    st.sampled_from([0.0, 100.0]),
)
@settings(max_examples=70, deadline=None)
def test_kernel_matches_ordered_twin(
    seed: int, n_cards: int, steps: int, variant: str, depth: int, bonus: float
) -> None:
    _, info = _position(seed, n_cards, steps, variant)
    assume(not info.is_over)
    agent = FairAgent(configs_with(win_bonus=bonus, win_model=_model(seed)))
    vals, _ = agent.search(info, depth)
    twin = twin_values(info, depth, agent.par_for(info))
    assert [v.action for v in vals] == [a for a, _, _, _ in twin]
    for v, (_, tv, tw, te) in zip(vals, twin, strict=True):
        assert abs(v.value - tv) < 1e-7, (info.to_text(), v, tv)
        if bonus:  # without the bonus, equal values may hide different win chances
            assert abs(v.win_chance - tw) < 1e-7, (info.to_text(), v, tw)
        assert abs(v.value - (v.expected_score + bonus * v.win_chance)) < 1e-7
        assert v.exact == te


@given(
    st.integers(0, 10**6),
    st.integers(10, 12),
    st.integers(0, 6),
    st.sampled_from(["classic", "easy", "hard", "easy/equal"]),
    st.integers(0, 1),
)
@settings(max_examples=25, deadline=None)
def test_kernel_matches_ordered_twin_in_longer_dungeons(
    seed: int, n_cards: int, steps: int, variant: str, depth: int
) -> None:
    """Rooms with unseen cards behind them, so that most card moves end at a leaf or a
    death valued on the spot, under sums of the pool kept between leaves and cleared by
    flees and draws (``_kernel._pool_sums``)."""
    _, info = _position(seed, n_cards, steps, variant)
    assume(not info.is_over and len(info.unseen) > 4)
    agent = FairAgent(configs_with(win_bonus=100.0, win_model=_model(seed)))
    vals, _ = agent.search(info, depth)
    twin = twin_values(info, depth, agent.par_for(info))
    assert [v.action for v in vals] == [a for a, _, _, _ in twin]
    for v, (_, tv, tw, te) in zip(vals, twin, strict=True):
        assert abs(v.value - tv) < 1e-7, (info.to_text(), v, tv)
        assert abs(v.win_chance - tw) < 1e-7, (info.to_text(), v, tw)
        assert v.exact == te


@given(
    st.integers(0, 10**6),
    st.integers(10, 12),
    st.integers(0, 6),
    st.sampled_from(["classic", "hard", "classic/equal"]),
    st.integers(0, 1),
)
@settings(max_examples=20, deadline=None)
def test_kernel_with_win_net_matches_ordered_twin(
    seed: int, n_cards: int, steps: int, variant: str, depth: int
) -> None:
    """A win net as the leaf's win model: the kernel keeps one row of its hidden units
    per pool (``_kernel._net_pool``), cleared with the pool's sums; the twin computes
    the net afresh at every leaf."""
    _, info = _position(seed, n_cards, steps, variant)
    assume(not info.is_over and len(info.unseen) > 4)
    agent = FairAgent(configs_with(win_bonus=100.0, win_model=_net_model(seed)))
    vals, _ = agent.search(info, depth)
    twin = twin_values(info, depth, agent.par_for(info))
    assert [v.action for v in vals] == [a for a, _, _, _ in twin]
    for v, (_, tv, tw, te) in zip(vals, twin, strict=True):
        assert abs(v.value - tv) < 1e-7, (info.to_text(), v, tv)
        assert abs(v.win_chance - tw) < 1e-7, (info.to_text(), v, tw)
        assert v.exact == te


def test_weights_array_checks_a_win_net() -> None:
    good = _net_model(1, 3)
    assert weights_array(None, good).shape == (7 + len(good),)
    assert weights_array(None, _model(1))[-1] == 0.0  # no net: hidden units 0
    for bad in (good[:-1], (*good[:13], 0.0, *good[14:]), (*good[:13], 2.5, *good[14:]),
                (*good[:-1], float("nan"))):
        with pytest.raises(ValueError, match="win model"):
            weights_array(None, bad)


@given(st.integers(0, 10**6), st.integers(0, 12))
@settings(max_examples=300, deadline=None)
def test_leaf_kernel_matches_python(seed: int, n_bottom: int) -> None:
    rng = random.Random(seed)
    cards = rng.sample(FULL_DECK, rng.randint(1, 30))
    room = cards[: rng.randint(0, min(4, len(cards)))]
    rest = cards[len(room) :]
    bottom = rest[: min(n_bottom, len(rest))]
    unseen = rest[len(bottom) :]
    h = rng.randint(1, 20)
    w = rng.choice([0, *range(2, 11)])
    lk = 0 if not w else rng.choice([0, *range(2, 15)])
    equal = rng.randint(0, 1)
    model = _net_model(seed, rng.randint(1, 8)) if rng.random() < 0.5 else _model(seed)
    par = weights_array({"win_bonus": rng.choice([0.0, 100.0])}, model)
    cnt = np.zeros(K.NTYPES, np.int64)
    for c in unseen:
        cnt[card_type(c)] += 1
    bot = np.zeros(K.BOTTOM_CAP, np.int64)
    for i, c in enumerate(bottom):
        bot[i] = card_type(c)
    bpos = np.array([0, len(bottom)], np.int64)
    word = 0
    for i, c in enumerate(room):
        word |= card_type(c) << (5 * i)
    got, got_win = K.leaf(cnt, bot, bpos, word, len(room), h, w, lk, equal, par)
    reach = 0 if not w else (14 if not lk else (lk if equal else lk - 1))
    want, want_win = leaf_estimate(cards, h, w, reach, par)
    assert abs(got - want) < 1e-9
    assert abs(got_win - want_win) < 1e-12
    assert abs(leaf_value(cards, h, w, reach, par) - want) < 1e-12


@given(
    st.integers(0, 10**6),
    st.integers(5, 8),
    st.sampled_from(["classic", "hard", "classic/equal"]),
    st.sampled_from([0, 100]),
)
@settings(max_examples=25, deadline=None)
def test_exact_values_match_brute_force(seed: int, n_cards: int, variant: str, bonus: int) -> None:
    """On small decks the agent's values are exact and equal the world-by-world brute force."""
    rng = random.Random(seed)
    deck = rng.sample(FULL_DECK, n_cards)
    s = sc.new_game(deck=deck, variant=variant, partial=True)
    agent = FairAgent(configs_with(node_budget=10**9, win_bonus=bonus, endgame=0))
    vals = agent.evaluate(InfoState.initial(s))
    assert all(v.exact for v in vals)
    brute = brute_outcomes(s, win_bonus=bonus)
    assert [v.action for v in vals] == [a for a, _, _ in brute]
    for v, (_, b, p) in zip(vals, brute, strict=True):
        assert abs(v.value - float(b)) < 1e-7
        if bonus:  # without the bonus, equal scores may come with different win chances
            assert abs(v.win_chance - float(p)) < 1e-7
            assert abs(v.expected_score - float(b - bonus * p)) < 1e-7


def test_exact_value_after_a_flee_with_known_bottom() -> None:
    # flee, then the one unseen card comes up before the fled room, in known order
    s = sc.new_game(deck="QC 9S 2D 7H 5S 3H 8C", partial=True)
    s2 = sc.apply(s, sc.FLEE)
    info = observe(InfoState.initial(s), sc.FLEE, s2)
    bottom = info.bottom
    vals = FairAgent(configs_with(node_budget=10**9)).evaluate(info)
    assert all(v.exact for v in vals)
    want = brute_value(s2, bottom, int(DEFAULT_WEIGHTS["win_bonus"]))
    assert abs(max(v.value for v in vals) - float(want)) < 1e-9


def test_depth_limited_is_reported() -> None:
    info = InfoState.initial(sc.new_game(seed=5))
    vals = FairAgent(configs_with(max_depth=0)).evaluate(info)
    assert vals and not all(v.exact for v in vals)
