"""The bound's fast ``V`` by its numba kernels against their plain-Python twins.

Three ``V``: the one-room value reading the fair agent's win model at the room's
end; the one-room value reading a win net there (``par`` holds one, in
``fair.leaf``'s layout: ``par[LEAF_NET]`` hidden units and their weights; the
kernel evaluates the net from the pool's counts by card type, the room's cards and
the player's inputs; its twin reads it through ``fair.leaf.leaf_estimate``); and
the room net, read at the fresh room itself. Each on the positions of random full
games against its twin (``values.one_room_value``, ``values.room_net_value``), and
its exact mean after the chance nodes of random small games against the
card-by-card walk (``penalty.Penalties``). The nets are random.
"""

from __future__ import annotations

import random
from collections.abc import Callable

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
    Charges,
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


def random_room_net(seed: int) -> np.ndarray:
    """A room net of 1 to 12 hidden units with random weights (small, so that its chances
    spread over (0, 1))."""
    rng = np.random.default_rng(seed)
    hidden = int(rng.integers(1, 13))
    rpar = rng.normal(0.0, 0.3, room_net_size(hidden))
    rpar[0], rpar[1] = hidden, float(rng.integers(0, 21))
    return rpar


V_KINDS = ("one-room", "win net", "room net")
"""The fast ``V`` checked against their twins: the one-room value with the fair agent's
win model, the one-room value with a random win net, a random room net."""


def kernel_and_twin(kind: str, seed: int) -> tuple[Charges, Callable[[InfoState], float]]:
    """The ``V`` named ``kind`` by its kernel and by its plain-Python twin (a net: random,
    from ``seed``)."""
    if kind == "one-room":
        return OneRoom(), one_room_value
    if kind == "win net":
        par = random_net(seed)
        assert par[LEAF_NET] >= 1
        return OneRoom(par), lambda x: one_room_value(x, par)
    rpar = random_room_net(seed)
    return RoomNet(rpar), lambda x: room_net_value(x, rpar)


@pytest.mark.parametrize("kind", V_KINDS)
@given(st.integers(0, 10**6), st.integers(0, 60), st.sampled_from(RULES))
@settings(max_examples=60, deadline=None)
def test_the_kernel_is_its_twin(kind: str, seed: int, plies: int,
                                rules: tuple[str, str]) -> None:
    # every position along a random full game, the deal's first decision included
    variant, wear = rules
    rng = random.Random(seed)
    s = sc.new_game(seed=seed, variant=variant, weapon_rule=wear)
    info = InfoState.initial(s)
    fast, twin = kernel_and_twin(kind, seed)
    for ply in range(plies + 1):
        got = fast.value(info)
        assert got == pytest.approx(twin(info), abs=1e-12)
        assert 0.0 <= got <= 1.0
        if s.is_over or ply == plies:
            break
        a = rng.choice(sc.legal_actions(s))
        s2 = sc.apply(s, a)
        info, s = observe(info, a, s2), s2


@pytest.mark.parametrize("kind", V_KINDS)
@given(st.integers(5, 8).flatmap(
    lambda n: st.lists(st.sampled_from(POOL), min_size=n, max_size=n, unique=True)),
    st.integers(0, 10**6), st.integers(0, 8), st.sampled_from(RULES))
@settings(max_examples=40, deadline=None)
def test_the_kernels_mean_is_the_card_by_card_walk(
    kind: str, deck: list[Card], seed: int, plies: int, rules: tuple[str, str]
) -> None:
    # every chance node met along a random game of a small deck: the deal, refills,
    # flees, and draws that run into the known bottom
    variant, wear = rules
    rng = random.Random(seed)
    rng.shuffle(deck)
    s = sc.new_game(deck=deck, partial=True, variant=variant, weapon_rule=wear)
    fast, twin = kernel_and_twin(kind, seed)
    slow = Penalties(twin)
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
