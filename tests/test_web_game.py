"""scoundrel-web's replay of a deal and a line: the cached path against a fresh replay."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from scoundrel_solver.coach.game import room_numbers
from scoundrel_solver.web.game import BadInput, parse_deal, replay, replay_fresh


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**64 - 1), st.sampled_from(sorted(sc.VARIANTS)),
       st.lists(st.integers(0, 8), max_size=60))
def test_a_cached_replay_equals_a_fresh_one(seed: int, variant: str, picks: list[int]) -> None:
    deal = parse_deal({"seed": str(seed), "variant": variant})
    s, steps, states = deal.start, [], [deal.start]
    for p in picks:
        if s.is_over:
            break
        legal = sc.legal_actions(s)
        a = legal[p % len(legal)]
        s = sc.apply(s, a)
        steps.append(str(a))
        states.append(s)
        replay(deal, steps)  # each move extends the cached game by one step
    cached, fresh = replay(deal, steps), replay_fresh(deal, steps)
    assert cached.state == fresh.state == s
    assert cached.info == fresh.info
    assert cached.stack == fresh.stack and cached.actions == fresh.actions
    assert cached.room == fresh.room == room_numbers(states, list(fresh.actions))[-1]
    # the information state is what the player saw: observe along the line
    info = sc.InfoState.initial(deal.start)
    for a, after in zip(fresh.actions, states[1:], strict=True):
        info = sc.observe(info, a, after)
    assert fresh.info == info


def test_a_cached_prefix_does_not_excuse_an_illegal_step() -> None:
    deal = parse_deal({"seed": "42"})
    replay(deal, ["flee"])
    with pytest.raises(BadInput, match="step 2"):
        replay(deal, ["flee", "flee"])
