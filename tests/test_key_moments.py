"""A review that teaches: labels beyond the noise, key moments, the turning point, puzzles."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from naive.brute import brute_force
from scoundrel_solver.coach import Deal, Game
from scoundrel_solver.coach.hindsight import TurningPoint, turning_point, turning_point_slow
from scoundrel_solver.coach.labels import NOISE, judge, judge_rows, label, standard_error
from scoundrel_solver.coach.puzzles import MARGIN, answer_label, daily_puzzle, order_wins
from scoundrel_solver.coach.review import KEY_MOMENTS, review
from scoundrel_solver.play.render import Palette, render_review

# -- labels: a drop within the noise of the samples is not labelled --------------------------


def test_a_drop_of_one_order_in_eight_is_not_a_blunder_an_exact_drop_of_a_third_is() -> None:
    assert label(1 / 8) is not None  # the drop alone would be labelled
    assert judge(1 / 8, 8, 0.0, 8) is None  # ... but one order of eight is noise
    assert judge(7 / 8, 8, 6 / 8, 8) is None
    assert judge(0.3, 0, 0.0, 0) == "blunder"  # exact rows have no noise
    assert judge(1.0, 8, 0.0, 8) == "blunder"  # every order against none: no doubt
    assert judge(0.4, 0, 0.5, 0) is None  # the played action was better: no drop


def test_the_standard_error_of_a_share_of_sampled_orders() -> None:
    assert standard_error(0.5, 8) == pytest.approx(math.sqrt(0.25 / 8))
    assert standard_error(0.3, 0) == 0.0 and standard_error(1.0, 8) == 0.0
    with pytest.raises(ValueError, match="samples -1"):
        standard_error(0.5, -1)


@settings(max_examples=300, deadline=None)
@given(k1=st.integers(0, 32), k2=st.integers(0, 32), w1=st.integers(0, 32),
       w2=st.integers(0, 32), exact=st.booleans())
def test_a_label_needs_a_drop_beyond_two_combined_standard_errors(
        k1: int, k2: int, w1: int, w2: int, exact: bool) -> None:
    if exact:
        k1 = k2 = 0
    p1 = min(w1, k1) / k1 if k1 else w1 / 32
    p2 = min(w2, k2) / k2 if k2 else w2 / 32
    got = judge(p1, k1, p2, k2)
    se = math.sqrt((p1 * (1 - p1) / k1 if k1 else 0) + (p2 * (1 - p2) / k2 if k2 else 0))
    lost = max(0.0, p1 - p2)
    if lost <= NOISE * se:
        assert got is None
    else:
        assert got == label(lost)


# -- the turning point: halving the line agrees with asking every position -------------------


def _brute_wins(s: sc.State) -> bool:
    return s.won if s.is_over else brute_force(s)[0] > 0


@settings(max_examples=40, deadline=None)
@given(cards=st.permutations([str(c) for c in sc.FULL_DECK]).map(lambda d: d[:9]),
       picks=st.lists(st.integers(0, 20), min_size=0, max_size=20))
def test_the_turning_point_agrees_with_a_brute_force_over_every_position(
        cards: list[str], picks: list[int]) -> None:
    start = sc.new_game(deck=" ".join(cards), partial=True)
    s, line = start, []
    for p in picks:
        if s.is_over:
            break
        legal = sc.legal_actions(s)
        a = legal[p % len(legal)]
        line.append(a)
        s = sc.apply(s, a)
    fast = turning_point(start, line)
    slow = turning_point_slow(start, line, _brute_wins)
    assert (fast.outcome, fast.step) == (slow.outcome, slow.step)
    assert fast.solves <= slow.solves
    if fast.outcome == "turned":
        assert fast.step is not None
        before = sc.play_line(start, [str(a) for a in line[:fast.step - 1]])
        assert _brute_wins(before) and not _brute_wins(sc.apply(before, line[fast.step - 1]))


def _first_listed(seed: int) -> Game:
    game = Game.begin(Deal.seeded(seed))
    while not game.is_over:
        game = game.then(game.legal()[0])
    return game


def test_the_turning_point_of_known_deals() -> None:
    lost = _first_listed(3)  # a winnable deal thrown away by taking the first action
    tp = turning_point(lost.deal.start, lost.actions)
    assert tp == TurningPoint("turned", 5, tp.solves) and tp.solves < len(lost.actions)
    assert turning_point_slow(lost.deal.start, lost.actions).step == 5
    never = _first_listed(28)  # the census: classic/strict seed 28 cannot be won
    assert turning_point(never.deal.start, never.actions).outcome == "never"
    assert turning_point(lost.deal.start, ()).outcome == "winnable"


def test_a_won_game_has_no_turning_point() -> None:
    from scoundrel_solver import solve

    start = sc.new_game(seed=42)
    line = [sc.parse_action_text(t) for t in solve(42).line]
    assert sc.play_line(start, list(solve(42).line)).won
    assert turning_point(start, line).outcome == "won"


# -- key moments ------------------------------------------------------------------------------


def test_key_moments_are_the_largest_labelled_drops_and_both_front_ends_show_them() -> None:
    game = _first_listed(3)
    rev = review(game, solve_seconds=30.0)
    labelled = [d for d in rev.decisions if d.label]
    moments = rev.key_moments
    assert 0 < len(moments) <= KEY_MOMENTS and all(d.label for d in moments)
    drops = sorted((d.drop or 0.0 for d in labelled), reverse=True)
    assert [d.drop for d in moments] == drops[:len(moments)]
    assert rev.turning == turning_point(game.deal.start, game.actions)
    body = rev.to_json()
    assert body["key_moments"] == [d.step for d in moments]
    assert body["turning_point"]["step"] == 5 and body["fair"]["decisions"] == len(rev.fair.exact)
    for d in body["decisions"]:  # the puzzle's position: what the player saw, no order
        info = sc.InfoState.from_text(d["info"])
        assert info.room == sc.parse_state(d["state"]).room
    text = "\n".join(render_review(rev, Palette()))
    assert "Key moments" in text and "after step 5" in text
    for d in moments:
        assert f"played {d.played!s:<6}" in text


def test_a_cap_of_key_moments_keeps_the_earlier_of_equal_drops() -> None:
    rev = review(_first_listed(3), solve_seconds=30.0)
    d = rev.key_moments[0]  # a labelled decision, copied to other steps
    fake = [replace(d, step=i, drop=0.5) for i in (9, 4, 7, 2)]
    many = replace(rev, decisions=tuple(fake))
    assert [m.step for m in many.key_moments] == [2, 4, 7][:KEY_MOMENTS]


# -- the daily puzzle -------------------------------------------------------------------------


def test_the_daily_puzzle_is_clear_checked_and_shows_only_what_a_player_sees() -> None:
    seeds = list(range(1000, 1040))
    p = daily_puzzle("2026-12-02", seeds)
    assert p is not None and p.seed in seeds
    legal = p.info.legal_actions()
    assert p.answer in legal and len(legal) > 1
    # every other action would be a blunder beside the answer, in the agent's values
    for a in legal:
        if a != p.answer:
            assert answer_label(p.rows, str(p.answer), str(a)) == "blunder"
            assert p.wins[str(p.answer)] >= p.wins[str(a)] + MARGIN
    assert order_wins(p.info, legal, p.samples) == p.wins
    # the position arises in the fair agent's game on the seed, at that step
    text = p.to_json()["state"]
    assert sc.InfoState.from_text(text) == p.info
    # the unseen cards are listed in the deck's own order (by card), not the dungeon's
    listed = [sc.parse_card(c) for c in text.split("dungeon=[")[1].split("]")[0].split()]
    unseen = listed[:len(p.info.unseen)]
    assert set(unseen) == set(p.info.unseen) and unseen == sorted(unseen, key=lambda c: c.id)
    assert daily_puzzle("2026-12-02", seeds) == p  # one puzzle a day


def test_rows_are_judged_on_the_shown_drop_beyond_the_noise_of_the_shares() -> None:
    def row(shown: float, share: float, samples: int) -> dict[str, float | int]:
        return {"win_chance": shown, "search_win_chance": share, "samples": samples}

    # one order of eight apart: noise, however far apart the calibrated chances
    assert judge_rows(row(0.5, 1 / 8, 8), row(0.2, 0.0, 8)) is None
    # every order against none: beyond the noise; the label is the shown drop's
    assert judge_rows(row(0.9, 1.0, 8), row(0.3, 0.0, 8)) == "blunder"
    assert judge_rows(row(0.9, 1.0, 8), row(0.86, 0.0, 8)) == label(0.04)
    # search values carry no sampling noise; rows of old files lack the search's chance
    assert judge_rows(row(0.6, 0.3, 0), row(0.3, 0.1, 0)) == "blunder"
    assert judge_rows({"win_chance": 0.6, "samples": 0}, {"win_chance": 0.3, "samples": 0}) == (
        "blunder")
