"""A value that sees the known bottom's order: its features, its fast rows against their slow
twin, its model file, and the widening of a model without it (which plays exactly as before)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from scoundrel_core import FULL_DECK, Kind, State
from scoundrel_core.info import ChanceNode, InfoState, observe
from scoundrel_solver.errors import SolverError
from scoundrel_solver.fair.value.features import (
    BOTTOM_ORDER,
    FEATURES,
    FEATURES_ORDER,
    ORDER_FEATURES,
    features_of,
    features_of_row,
    state_row,
)
from scoundrel_solver.fair.value.model import Net, ValueModel, load_model
from scoundrel_solver.fair.value.policy import Deals, ValuePolicy, dealt_rows, dealt_rows_slow


def _walk(seed: int, n_cards: int, steps: int, flee: float = 0.5) -> tuple[State, InfoState]:
    """A position of random legal play from a random partial deck, fleeing often (so the
    bottom is long)."""
    rng = random.Random(seed)
    s = sc.new_game(deck=rng.sample(FULL_DECK, n_cards), partial=True)
    info = InfoState.initial(s)
    for _ in range(steps):
        if s.is_over:
            break
        acts = sc.legal_actions(s)
        fled = [a for a in acts if a.is_flee]
        a = fled[0] if fled and rng.random() < flee else rng.choice(acts)
        s2 = sc.apply(s, a)
        info, s = observe(info, a, s2), s2
    return s, info


def _order_slow(info: InfoState) -> list[int]:
    """The order block read card by card from the bottom's text."""
    out = []
    for i in range(BOTTOM_ORDER):
        cells = [0, 0, 0]
        if i < len(info.bottom):
            c = info.bottom[i]
            cells[[Kind.MONSTER, Kind.WEAPON, Kind.POTION].index(c.kind)] = c.value
        out += cells
    return out


@given(st.integers(0, 10**6), st.integers(5, 44), st.integers(0, 30))
@settings(max_examples=40, deadline=None)
def test_order_features_are_the_bottom_card_by_card(seed: int, n_cards: int,
                                                    steps: int) -> None:
    """The order block is the bottom's cards in dealing order; the rest is the features
    without it; a data row's columns give the same numbers."""
    _, info = _walk(seed, n_cards, steps)
    x = features_of(info, order=True)
    assert x.shape == (len(FEATURES_ORDER),) == (len(FEATURES) + len(ORDER_FEATURES),)
    assert np.array_equal(x[: len(FEATURES)], features_of(info))
    assert x[len(FEATURES):].tolist() == _order_slow(info)
    row = json.loads(json.dumps(state_row(info)))
    assert np.array_equal(features_of_row(row, str(info.variant), order=True), x)


def test_order_features_tell_apart_what_the_counts_do_not() -> None:
    """Two bottoms of the same cards in another order: the counts agree, the order does not."""
    text = ("classic/strict health=9 weapon=5D last=- potion=0 resolved=0 fled=1 "
            "room=[2C 3C 4C 5C] dungeon=[9H {a} {b}] | bottom=[{a} {b}]")
    one = InfoState.from_text(text.format(a="KS", b="2H"))
    two = InfoState.from_text(text.format(a="2H", b="KS"))
    assert np.array_equal(features_of(one), features_of(two))
    assert not np.array_equal(features_of(one, order=True), features_of(two, order=True))
    got = dict(zip(FEATURES_ORDER, features_of(one, order=True).tolist(), strict=True))
    assert (got["bottom1_m"], got["bottom2_p"], got["bottom3_m"]) == (13, 2, 0)


@given(st.integers(0, 10**6), st.integers(5, 44), st.integers(0, 16), st.integers(1, 300))
@settings(max_examples=40, deadline=None)
def test_dealt_rows_with_order_match_states_built_card_by_card(seed: int, n_cards: int,
                                                               steps: int,
                                                               samples: int) -> None:
    """The fast rows with the order block equal the features of every dealt state built one
    card at a time (deals that reach the bottom included)."""
    s, info = _walk(seed, n_cards, steps)
    assume(not s.is_over)
    deals = Deals(info, samples)
    for a in info.legal_actions():
        node = info.apply(a)
        if not isinstance(node, ChanceNode):
            continue
        counts, _ = deals.counts(min(node.to_draw, len(node.base.unseen)))
        assert np.array_equal(dealt_rows(node, counts, order=True),
                              dealt_rows_slow(node, counts, order=True))


def _order_model(rng: np.random.Generator) -> ValueModel:
    n = len(FEATURES_ORDER)

    def net() -> Net:
        return Net(((rng.normal(0, 0.1, (n, 6)), rng.normal(0, 0.1, 6)),
                    (rng.normal(0, 0.3, (6, 1)), rng.normal(0, 0.1, 1))))

    return ValueModel(rng.normal(0, 1, n), rng.uniform(0.5, 2, n), net(), net(), -10.0, 30.0,
                      {"note": "test"}, order=True)


@given(st.integers(0, 10**6), st.integers(0, 30))
@settings(max_examples=15, deadline=None)
def test_a_policy_on_an_order_model_is_its_slow_twin(seed: int, steps: int) -> None:
    """The policy on a value with the order: its fast decision against every dealt state
    built and evaluated by the numpy model."""
    s, info = _walk(seed, 44, steps)
    assume(not s.is_over)
    policy = ValuePolicy(_order_model(np.random.default_rng(seed)))
    fast, slow = policy.evaluate(info), policy.evaluate(info, fast=False)
    for f, w in zip(fast, slow, strict=True):
        assert f.win_chance == pytest.approx(w.win_chance, abs=1e-9)
        assert f.expected_score == pytest.approx(w.expected_score, abs=1e-7)


def test_an_order_model_file_round_trips_and_is_checked(tmp_path: Path) -> None:
    model = _order_model(np.random.default_rng(3))
    model.save(tmp_path / "m.json")
    again = load_model(tmp_path / "m.json")
    assert again.order and again.features == FEATURES_ORDER
    x = np.random.default_rng(4).normal(0, 3, (5, len(FEATURES_ORDER)))
    assert np.allclose(again.win(x), model.win(x)) and np.allclose(again.score(x), model.score(x))
    with pytest.raises(SolverError, match=f"rows of {len(FEATURES_ORDER)} features"):
        again.win(x[:, : len(FEATURES)])
    data = json.loads((tmp_path / "m.json").read_text())
    data["features"] = data["features"][:-1]
    (tmp_path / "bad.json").write_text(json.dumps(data))
    with pytest.raises(SolverError, match="other features"):
        load_model(tmp_path / "bad.json")
    with pytest.raises(SolverError, match=f"standardises {len(FEATURES)} features"):
        ValueModel(model.mean, model.scale, model.win_net, model.score_net, 0.0, 1.0)
