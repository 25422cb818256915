"""The one-room ``V`` reading a win net at the room's end: the kernel against its twin.

When ``par`` holds a win net (``fair.leaf``'s layout: ``par[LEAF_NET]`` hidden
units and their weights), the bound's kernel evaluates the net from the pool's
counts by card type, the room's cards and the player's inputs. Its plain-Python
twin is ``values.one_room_value``, which reads the net through
``fair.leaf.leaf_estimate``. Random nets on positions of random full games, and
the exact mean after the chance nodes of random small games against the
card-by-card walk.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from scoundrel_core import Card
from scoundrel_core.info import ChanceNode, InfoState, observe
from scoundrel_solver.bound.deal import opening_node
from scoundrel_solver.bound.penalty import Penalties
from scoundrel_solver.bound.values import (
    OneRoom,
    RoomNet,
    one_room_value,
    room_net_size,
    room_net_value,
)
from scoundrel_solver.errors import SolverError
from scoundrel_solver.fair.leaf import FEATURES, LEAF_NET, net_size, weights_array

POOL = list(sc.parse_deck("2C 3C 5C 9C KC 2S 3S 5S 9S QS 2D 5D 8D 3H 6H 9H", partial=True))
RULES = [("classic", "strict"), ("hard", "strict"), ("classic", "equal")]


def random_net(seed: int) -> np.ndarray:
    """A ``par`` row whose win model is a random net of 1 to 12 hidden units (weights
    small enough that the chances spread over (0, 1) rather than sit at 0 or 1)."""
    rng = np.random.default_rng(seed)
    hidden = int(rng.integers(1, 13))
    net = rng.normal(0.0, 0.3, net_size(hidden))
    return weights_array(model=np.r_[np.zeros(len(FEATURES)), hidden, net])


@given(st.integers(0, 10**6), st.integers(0, 60), st.sampled_from(RULES))
@settings(max_examples=60, deadline=None)
def test_a_win_net_in_the_kernel_is_its_twin(seed: int, plies: int,
                                             rules: tuple[str, str]) -> None:
    variant, wear = rules
    rng = random.Random(seed)
    s = sc.new_game(seed=seed, variant=variant, weapon_rule=wear)
    info = InfoState.initial(s)
    for _ in range(plies):
        if s.is_over:
            break
        a = rng.choice(sc.legal_actions(s))
        s2 = sc.apply(s, a)
        info, s = observe(info, a, s2), s2
    par = random_net(seed)
    assert par[LEAF_NET] >= 1
    got = OneRoom(par).value(info)
    assert got == pytest.approx(one_room_value(info, par), abs=1e-12)
    # the net is read: the logistic model alone (all zero) would give 0.5 at every end
    if not info.is_over:
        assert 0.0 <= got <= 1.0


@given(st.integers(5, 7).flatmap(
    lambda n: st.lists(st.sampled_from(POOL), min_size=n, max_size=n, unique=True)),
    st.integers(0, 10**6), st.integers(0, 8), st.sampled_from(RULES))
@settings(max_examples=25, deadline=None)
def test_a_win_net_mean_is_the_card_by_card_walk(
    deck: list[Card], seed: int, plies: int, rules: tuple[str, str]
) -> None:
    variant, wear = rules
    rng = random.Random(seed)
    rng.shuffle(deck)
    s = sc.new_game(deck=deck, partial=True, variant=variant, weapon_rule=wear)
    par = random_net(seed)
    fast, slow = OneRoom(par), Penalties(lambda x: one_room_value(x, par))
    node = opening_node(s)
    assert fast.mean(node) == pytest.approx(slow.mean(node), abs=1e-12)
    info = InfoState.initial(s)
    for _ in range(plies):
        if s.is_over:
            break
        a = rng.choice(sc.legal_actions(s))
        y = info.apply(a)
        if isinstance(y, ChanceNode):
            assert fast.mean(y) == pytest.approx(slow.mean(y), abs=1e-12)
        s2 = sc.apply(s, a)
        info, s = observe(info, a, s2), s2


def test_a_net_changes_the_value() -> None:
    # two nets that differ only in the output bias value a room differently: the net
    # (not the zero logistic model beside it) is what the kernel reads
    s = sc.new_game(seed=3, variant="hard")
    info = InfoState.initial(s)
    par = random_net(3)
    lifted = par.copy()
    lifted[-1] += 2.0  # the output's bias
    assert OneRoom(lifted).value(info) > OneRoom(par).value(info)


def random_room_net(seed: int) -> np.ndarray:
    """A room net of 1 to 12 hidden units with random weights (small, so that its chances
    spread over (0, 1))."""
    rng = np.random.default_rng(seed)
    hidden = int(rng.integers(1, 13))
    rpar = rng.normal(0.0, 0.3, room_net_size(hidden))
    rpar[0], rpar[1] = hidden, float(rng.integers(0, 21))
    return rpar


@given(st.integers(0, 10**6), st.integers(0, 60), st.sampled_from(RULES))
@settings(max_examples=60, deadline=None)
def test_the_room_net_in_the_kernel_is_its_twin(seed: int, plies: int,
                                                rules: tuple[str, str]) -> None:
    variant, wear = rules
    rng = random.Random(seed)
    s = sc.new_game(seed=seed, variant=variant, weapon_rule=wear)
    info = InfoState.initial(s)
    rpar = random_room_net(seed)
    fast = RoomNet(rpar)
    for _ in range(plies):
        if s.is_over:
            break
        a = rng.choice(sc.legal_actions(s))
        s2 = sc.apply(s, a)
        info, s = observe(info, a, s2), s2
        assert fast.value(info) == pytest.approx(room_net_value(info, rpar), abs=1e-12)


@given(st.integers(5, 8).flatmap(
    lambda n: st.lists(st.sampled_from(POOL), min_size=n, max_size=n, unique=True)),
    st.integers(0, 10**6), st.integers(0, 8), st.sampled_from(RULES))
@settings(max_examples=40, deadline=None)
def test_the_room_net_mean_is_the_card_by_card_walk(
    deck: list[Card], seed: int, plies: int, rules: tuple[str, str]
) -> None:
    # every chance node of a random small game: the deal, refills, flees, and draws
    # that run into the known bottom
    variant, wear = rules
    rng = random.Random(seed)
    rng.shuffle(deck)
    s = sc.new_game(deck=deck, partial=True, variant=variant, weapon_rule=wear)
    rpar = random_room_net(seed)
    fast, slow = RoomNet(rpar), Penalties(lambda x: room_net_value(x, rpar))
    node = opening_node(s)
    assert fast.mean(node) == pytest.approx(slow.mean(node), abs=1e-12)
    info = InfoState.initial(s)
    for _ in range(plies):
        if s.is_over:
            break
        a = rng.choice(sc.legal_actions(s))
        y = info.apply(a)
        if isinstance(y, ChanceNode):
            assert fast.mean(y) == pytest.approx(slow.mean(y), abs=1e-12)
        s2 = sc.apply(s, a)
        info, s = observe(info, a, s2), s2


def test_a_room_net_reads_the_room_and_refuses_bad_numbers() -> None:
    s = sc.new_game(seed=5, variant="hard")
    info = InfoState.initial(s)
    rpar = random_room_net(5)
    hidden = int(rpar[0])
    moved = rpar.copy()
    moved[2:2 + 32 * hidden] += 0.5  # the room's rows only: the rest and inputs unchanged
    assert RoomNet(moved).value(info) != RoomNet(rpar).value(info)
    with pytest.raises(SolverError, match="room net"):
        RoomNet(rpar[:-1])
    with pytest.raises(SolverError, match="room net"):
        RoomNet(np.r_[0.0, rpar[1:]])
