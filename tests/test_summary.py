"""The one summary of many games: counts, the Wilson interval, percentiles."""

from __future__ import annotations

import math
import statistics
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from scoundrel_solver.runs.summary import (
    Outcome,
    Summary,
    percentile,
    summarize,
    wilson,
    win_interval,
)

Z = 1.959963984540054


def test_wilson_edges_have_closed_forms() -> None:
    # No wins: the interval is [0, z^2 / (n + z^2)]; all wins mirrors it.
    for n in (1, 10, 1000):
        lo, hi = wilson(0, n)
        assert lo == 0.0 and math.isclose(hi, Z * Z / (n + Z * Z))
        lo, hi = wilson(n, n)
        assert hi == 1.0 and math.isclose(lo, n / (n + Z * Z))
    assert wilson(0, 0) == (0.0, 1.0)


@given(st.integers(1, 10_000), st.data())
def test_wilson_brackets_the_rate_and_is_symmetric(games: int, data: st.DataObject) -> None:
    wins = data.draw(st.integers(0, games))
    lo, hi = wilson(wins, games)
    assert 0.0 <= lo <= wins / games <= hi <= 1.0
    lo2, hi2 = wilson(games - wins, games)
    assert math.isclose(lo, 1 - hi2, abs_tol=1e-12) and math.isclose(hi, 1 - lo2, abs_tol=1e-12)


@given(st.lists(st.floats(0, 1e6), min_size=1), st.floats(0.01, 1))
def test_percentile_is_the_nearest_rank(values: list[float], share: float) -> None:
    p = percentile(values, share)
    at_or_below = sum(v <= p for v in values)
    assert p in values and at_or_below >= share * len(values) - 1e-9
    assert sum(v < p for v in values) < share * len(values) + 1e-9


@given(st.lists(st.tuples(st.integers(-200, 30), st.floats(0, 100), st.booleans(),
                          st.integers(0, 10**9)), min_size=1))
def test_summary_matches_plain_arithmetic(rows: list[tuple[int, float, bool, int]]) -> None:
    s = summarize(Outcome(score, score > 0, secs, proven, nodes)
                  for score, secs, proven, nodes in rows)
    scores = [r[0] for r in rows]
    assert s.deals == len(rows) and s.wins == sum(x > 0 for x in scores)
    assert s.losses == len(rows) - s.wins and s.proven == sum(r[2] for r in rows)
    assert math.isclose(s.mean_score, statistics.fmean(scores))
    assert s.median_score == statistics.median(scores)
    assert s.median_seconds == statistics.median(r[1] for r in rows)
    assert s.worst_seconds == max(r[1] for r in rows)
    assert s.mean_nodes == sum(r[3] for r in rows) / len(rows)
    assert s.thirties == scores.count(30)
    # a deal neither won nor proven lost widens the interval: lost at its low end, won at its high
    undecided = sum(not proven and score <= 0 for score, _, proven, _ in rows)
    assert s.undecided == undecided
    assert s.win_rate_ci95 == (wilson(s.wins, s.deals)[0], wilson(s.wins + undecided, s.deals)[1])
    if all(r[2] for r in rows):
        assert s.win_rate_ci95 == wilson(s.wins, s.deals)


@given(st.integers(0, 1000).flatmap(lambda n: st.tuples(
    st.integers(0, n), st.integers(0, n), st.just(n))))
def test_the_win_interval_widens_with_the_undecided(wins_undecided_games: tuple[int, ...]) -> None:
    wins, undecided, games = wins_undecided_games
    undecided = min(undecided, games - wins)
    lo, hi = win_interval(wins, games, undecided)
    assert (lo, hi) == (wilson(wins, games)[0], wilson(wins + undecided, games)[1])
    assert win_interval(wins, games) == wilson(wins, games)
    assert lo <= wilson(wins, games)[1] <= hi


def test_a_summary_of_counts_only_has_no_times() -> None:
    """The census builds its summary from counts: no per-deal seconds, so no time figures,
    and the median score comes from the histogram."""
    s = summarize([])
    counts = Summary(deals=4, wins=3, proven=4, scores=Counter({-3: 1, 5: 2, 30: 1}),
                     seconds=(), nodes=40)
    assert (s.median_seconds, s.worst_seconds, s.p90_seconds) == (0, 0, 0)
    assert (counts.median_seconds, counts.worst_seconds, counts.mean_nodes) == (0, 0, 10)
    assert counts.median_score == 5 and counts.mean_score == (-3 + 5 + 5 + 30) / 4


def test_no_deals_averages_to_zero() -> None:
    s = summarize([])
    assert (s.deals, s.win_rate, s.mean_score, s.median_seconds, s.mean_nodes) == (0, 0, 0, 0, 0)
