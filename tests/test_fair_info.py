"""The information state: what a fair player knows, and chance made explicit."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from scoundrel_core import FULL_DECK, Kind
from scoundrel_core.info import ChanceNode, InfoState, observe, parse_info_text


def _random_game(seed: int, variant: str = "classic", n_cards: int = 44) -> list[sc.State]:
    rng = random.Random(seed)
    if n_cards == 44:
        s = sc.new_game(seed=seed, variant=variant)
    else:
        deck = rng.sample(FULL_DECK, n_cards)
        s = sc.new_game(deck=deck, variant=variant, partial=True)
    states = [s]
    while not s.is_over:
        s = sc.apply(s, rng.choice(sc.legal_actions(s)))
        states.append(s)
    return states


def _follow(seed: int, variant: str = "classic") -> None:
    """Replay a random game, checking observe() against the true state at each step."""
    rng = random.Random(seed)
    s = sc.new_game(seed=seed, variant=variant)
    info = InfoState.initial(s)
    while not s.is_over:
        acts = sc.legal_actions(s)
        assert info.legal_actions() == acts
        a = rng.choice(acts)
        nxt = sc.apply(s, a)
        info = observe(info, a, nxt)
        s = nxt
        # the dungeon is the unseen cards (any order) above the known bottom
        d = s.dungeon
        nb = len(info.bottom)
        assert d[len(d) - nb :] == info.bottom
        assert set(d[: len(d) - nb]) == info.unseen
        assert info.health == s.health and info.room == s.room
        assert info.is_over == s.is_over and info.score == s.score


@pytest.mark.parametrize("variant", ["classic", "easy", "hard"])
def test_observe_tracks_true_state(variant: str) -> None:
    for seed in range(30):
        _follow(seed, variant)


@given(st.integers(0, 10_000), st.sampled_from(["classic", "easy"]))
@settings(max_examples=40, deadline=None)
def test_info_tree_agrees_with_rules(seed: int, variant: str) -> None:
    """apply() on the info state, then drawing the true cards, gives observe()'s state."""
    rng = random.Random(seed)
    s = sc.new_game(seed=seed, variant=variant)
    info = InfoState.initial(s)
    while not s.is_over:
        a = rng.choice(sc.legal_actions(s))
        nxt = sc.apply(s, a)
        seen = observe(info, a, nxt)
        x = info.apply(a)
        while isinstance(x, ChanceNode):
            outs = x.exact_outcomes()
            assert sum(p for _, p in outs) == 1
            drawn = nxt.room[len(x.base.room)]
            o = (drawn.kind, drawn.value)
            assert o in dict(outs)
            x = x.draw(o)
        # the info tree picks one representative card per kind and value
        assert (x.health, x.weapon_value, x.last_kill, x.is_over, x.score) == (
            seen.health,
            seen.weapon_value,
            seen.last_kill,
            seen.is_over,
            seen.score,
        )
        assert sorted((c.kind, c.value) for c in x.room) == sorted(
            (c.kind, c.value) for c in seen.room
        )
        info, s = seen, nxt


def test_outcomes_are_kinds_and_values() -> None:
    s = sc.new_game(seed=3)
    node = InfoState.initial(s).apply(sc.FLEE)
    assert isinstance(node, ChanceNode)
    outs = dict(node.exact_outcomes())
    # 40 unseen cards; two monsters of a value are one outcome
    assert sum(outs.values()) == 1
    for (kind, value), p in outs.items():
        n = sum(1 for c in node.base.unseen if c.kind is kind and c.value == value)
        assert p == Fraction(n, 40)
    assert all(kind is not Kind.MONSTER or p <= Fraction(2, 40) for (kind, _), p in outs.items())


def test_fled_room_comes_back_in_known_order() -> None:
    # 5 cards: flee the first room; the one unseen card comes first, then the fled room
    s = sc.new_game(deck="2C 3C 4C 5C 9H", partial=True)
    info = InfoState.initial(s)
    s2 = sc.apply(s, sc.FLEE)
    info2 = observe(info, sc.FLEE, s2)
    assert info2.unseen == frozenset() and info2.room == s2.room
    assert [str(c) for c in info2.room] == ["9H", "2C", "3C", "4C"]
    assert [str(c) for c in info2.bottom] == ["5C"]
    node = info.apply(sc.FLEE)
    assert isinstance(node, ChanceNode)
    assert node.chance_outcomes() == [((Kind.POTION, 9), 1.0)]
    x = node.draw((Kind.POTION, 9))
    while isinstance(x, ChanceNode):
        (o, p), = x.chance_outcomes()
        assert p == 1.0
        x = x.draw(o)
    assert x == info2


def test_text_round_trip() -> None:
    for seed in range(10):
        states = _random_game(seed)
        s = states[len(states) // 2]
        info = InfoState.from_state(s)
        assert parse_info_text(info.to_text()) == info
    s = sc.new_game(deck="2C 3C 4C 5C 6S 7S 8S 9S 9H", partial=True)
    s = sc.apply(s, sc.FLEE)
    info = observe(InfoState.initial(sc.new_game(deck="2C 3C 4C 5C 6S 7S 8S 9S 9H",
                                                 partial=True)), sc.FLEE, s)
    assert parse_info_text(info.to_text()) == info
    assert info.to_text().endswith("| bottom=[2C 3C 4C 5C]")


def test_bad_info_text() -> None:
    with pytest.raises(sc.StateTextError):
        parse_info_text("nonsense")
    s = sc.new_game(deck="2C 3C 4C 5C 6S 7S", partial=True)
    with pytest.raises(sc.StateTextError):
        parse_info_text(s.to_text() + " | bottom=[6S]")
