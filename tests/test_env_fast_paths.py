"""The environments' fast paths against their slow twins, on generated games.

- the scalar env's player view (observation slots updated from the packed
  state words) against ``encode(observe(...))`` step by step;
- the unchecked opening state of a deal against ``State.from_parts``;
- the rules' packed-word flee test against the variant's rule on the properties;
- the numpy choices of random legal actions against a plain Python loop.
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from scoundrel_core.env import (
    MAX_LEGAL,
    ScoundrelEnv,
    encode,
    random_legal_actions,
    random_listed_actions,
)
from scoundrel_core.env.view import PlayerView
from scoundrel_core.info import InfoState, observe
from scoundrel_core.rules import _can_flee
from scoundrel_core.state import State, dealt_state

RULES = [(v, w) for v in sc.FLEE_RULES for w in sc.WEAPON_RULES]
seeds = st.integers(0, 2**64 - 1)


def _flees_by_properties(s: State) -> bool:
    return not s.is_over and s.variant.allows_flee(
        room_size=len(s.room), resolved=s.resolved_in_room, dungeon_size=s.dungeon_size,
        fled_last=s.fled_last,
    )


@settings(max_examples=80, deadline=None)
@given(
    seed=seeds,
    rule=st.sampled_from(RULES),
    pick=st.integers(0, 2**32),
    p_flee=st.sampled_from([0.0, 0.3, 0.9]),
)
def test_player_view_follows_observe(
    seed: int, rule: tuple[str, str], pick: int, p_flee: float
) -> None:
    """Fleeing often (``p_flee``) reaches long known bottoms and rooms drawn from them."""
    rng = random.Random(pick)
    s = sc.new_game(seed=seed, variant=rule[0], weapon_rule=rule[1])
    view = PlayerView()
    view.start(s)
    know = InfoState.initial(s)
    for _ in range(300):
        assert bytes(view.slots) == encode(know).tobytes()
        assert view.info_state(s) == know
        assert _can_flee(s) == _flees_by_properties(s)
        if s.is_over:
            break
        legal = [int(a) for a in sc.legal_actions(s)]
        a = 88 if 88 in legal and rng.random() < p_flee else rng.choice(legal)
        t = sc.apply(s, a)
        view.follow(s, a, t)
        know = observe(know, a, t)
        s = t


@settings(max_examples=40, deadline=None)
@given(seed=seeds, rule=st.sampled_from(RULES), pick=st.integers(0, 2**32))
def test_scalar_env_info_state_is_the_observed_one(
    seed: int, rule: tuple[str, str], pick: int
) -> None:
    rng = random.Random(pick)
    env = ScoundrelEnv(*rule)
    obs, info = env.reset(seed=seed)
    s = sc.new_game(seed=seed, variant=rule[0], weapon_rule=rule[1])
    know = InfoState.initial(s)
    while True:
        assert env.info_state == know and np.array_equal(obs, encode(know))
        assert np.array_equal(env.action_masks(), sc.legal_action_mask(know))
        if not info["action_mask"].any():
            break
        a = rng.choice([int(x) for x in np.flatnonzero(info["action_mask"])])
        obs, _, _, _, info = env.step(a)
        s = sc.apply(s, a)
        know = observe(know, a, s)


@settings(max_examples=100, deadline=None)
@given(seed=seeds, rule=st.sampled_from(RULES))
def test_dealt_state_is_the_checked_opening(seed: int, rule: tuple[str, str]) -> None:
    cards = sc.deal(seed)
    v = sc.get_variant(*rule)
    fast = dealt_state([c.id for c in cards], v)
    assert fast == State.from_parts(dungeon=cards[4:], room=cards[:4], variant=v)
    assert fast == sc.new_game(seed=seed, variant=v)


def _choices_by_loop(legal: list[list[int]], u: np.ndarray) -> list[int]:
    """The choice both helpers document: entry ``floor(u * count)`` of the ascending list."""
    return [row[int(x * len(row))] if row else 0 for row, x in zip(legal, u, strict=True)]


@settings(max_examples=100, deadline=None)
@given(
    rows=st.lists(
        st.lists(st.integers(0, sc.NUM_ACTIONS - 1), max_size=MAX_LEGAL, unique=True),
        min_size=1, max_size=40,
    ),
    pick=st.integers(0, 2**32),
)
def test_random_choices_match_a_python_loop(rows: list[list[int]], pick: int) -> None:
    legal = [sorted(r) for r in rows]
    mask = np.zeros((len(legal), sc.NUM_ACTIONS), np.bool_)
    lists = np.full((len(legal), MAX_LEGAL), -1, np.int8)
    for i, r in enumerate(legal):
        mask[i, r] = True
        lists[i, : len(r)] = r
    want = _choices_by_loop(legal, np.random.default_rng(pick).random(len(legal)))
    by_mask = random_legal_actions(mask, np.random.default_rng(pick))
    by_lists = random_listed_actions(lists, np.random.default_rng(pick))
    assert by_mask.dtype == by_lists.dtype == np.int64
    assert list(by_mask) == want and list(by_lists) == want
