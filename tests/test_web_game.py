"""scoundrel-web's replay of a deal and a line: the cached path against a fresh replay."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from scoundrel_solver.coach.deal import Deal
from scoundrel_solver.coach.game import Game, room_numbers
from scoundrel_solver.coach.score import explain
from scoundrel_solver.web.game import BadInput, parse_deal, replay, replay_fresh
from scoundrel_solver.web.view import board


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
    assert cached.entry == fresh.entry
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


def _keys(game: Game) -> dict[str, str]:
    """Each room card's key on the page (the unshifted one), left to right as drawn."""
    b = board(game, "/play")
    out = {}
    for c in b["room"]:
        keys = {a["key"] for a in c["actions"]} - {f"shift+{a['n']}" for a in c["actions"]}
        assert len(keys) <= 1, keys
        out[c["text"]] = keys.pop() if keys else ""
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**64 - 1), st.sampled_from(sorted(sc.VARIANTS)),
       st.lists(st.integers(0, 8), max_size=50))
def test_keys_run_left_to_right_in_the_order_dealt_and_stay_within_a_room(
        seed: int, variant: str, picks: list[int]) -> None:
    game = Game.begin(Deal.seeded(seed, variant))
    before: dict[str, str] = {}
    for p in [*picks, 0]:
        keys = _keys(game)
        shown = [k for k in keys.values() if k]
        # numbers left to right, each card's place in the room as it was dealt
        assert [int(k) for k in shown] == sorted(int(k) for k in shown)
        assert all(int(keys[str(c)]) == game.entry.index(c) + 1 for c in game.state.room
                   if keys[str(c)])
        assert set(game.state.room) <= set(game.entry) and len(game.entry) <= 4
        if before:  # the same room: a card keeps its key
            assert all(before[c] == k for c, k in keys.items() if c in before and k and before[c])
        if game.state.is_over:
            break
        legal = game.legal()
        a = legal[p % len(legal)]
        room = game.room
        game = game.then(a)
        before = keys if game.room == room and not a.is_flee else {}
    # every key on a page plays one action: the digits, Shift and a digit, F
    b = board(game, "/play")
    all_keys = [a["key"] for a in b["actions"]]
    assert len(all_keys) == len(set(all_keys))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**64 - 1), st.sampled_from(sorted(sc.VARIANTS)),
       st.lists(st.integers(0, 8), min_size=1, max_size=5))
def test_a_finished_games_score_is_explained_by_the_library_rules(
        seed: int, variant: str, picks: list[int]) -> None:
    s = sc.new_game(seed=seed, variant=variant)
    last = None
    i = 0
    while not s.is_over:
        legal = sc.legal_actions(s)
        if i >= 100:  # easy may flee forever: past 100 steps, play the room out
            legal = tuple(a for a in legal if not a.is_flee) or legal
        last = legal[picks[i % len(picks)] % len(legal)]
        s = sc.apply(s, last)
        i += 1
    parts = explain(s, last)
    assert parts.score == s.score
    if s.won:
        assert parts.health + parts.bonus == s.score and not parts.left
        assert (parts.bonus > 0) == (s.health == sc.MAX_HEALTH and last is not None
                                     and last.card is not None and last.card.is_potion)
    else:
        assert parts.health - parts.left_total == s.score
        assert sorted(parts.left) == sorted(c for c in (*s.room, *s.dungeon) if c.is_monster)
    assert str(s.score) in parts.text


def test_a_running_game_has_no_score_to_explain() -> None:
    with pytest.raises(ValueError, match="not over"):
        explain(sc.new_game(seed=1), None)
