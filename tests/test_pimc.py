"""Perfect-information Monte Carlo: equal to a plain enumeration on small positions,
deterministic, and blind to the dungeon order (no peeking)."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from naive.brute import brute_force
from scoundrel_core import FULL_DECK, Action, State
from scoundrel_core.info import InfoState, observe
from scoundrel_solver.cli import eval as eval_cli
from scoundrel_solver.errors import SolverError
from scoundrel_solver.fair.api import make_agent, play_with
from scoundrel_solver.fair.baselines import GreedyAgent
from scoundrel_solver.fair.pimc import (
    UNPROVEN_KEPT,
    PimcAgent,
    best_tally,
    race_actions,
    sample_orders,
    tally_actions,
    world,
    worlds,
)


def _walk(seed: int, n_cards: int, steps: int) -> tuple[State, InfoState]:
    """A small random deal played ``steps`` random moves on (flees included)."""
    rng = random.Random(seed)
    s = sc.new_game(deck=rng.sample(FULL_DECK, n_cards), partial=True)
    info = InfoState.initial(s)
    for _ in range(steps):
        if s.is_over:
            break
        a = rng.choice(sc.legal_actions(s))
        s2 = sc.apply(s, a)
        info = observe(info, a, s2)
        s = s2
    return s, info


def _plain_pimc(s: State, bottom: tuple[sc.Card, ...]) -> dict[Action, tuple[int, int]]:
    """Wins and summed best score of each action over every order of the unseen cards,
    solved by the brute-force oracle: PIMC with nothing sampled and nothing fast."""
    d = s.dungeon
    unseen = d[: len(d) - len(bottom)]
    out: dict[Action, tuple[int, int]] = {}
    for a in sc.legal_actions(s):
        wins = total = 0
        for perm in itertools.permutations(unseen):
            nxt = sc.apply(s.with_dungeon((*perm, *bottom)), a)
            score = nxt.score if nxt.is_over else brute_force(nxt)[0]
            assert score is not None
            wins += score > 0
            total += score
        out[a] = (wins, total)
    return out


@given(st.integers(0, 10**6), st.integers(5, 8), st.integers(0, 5))
@settings(max_examples=12, deadline=None)
def test_all_orders_equal_plain_enumeration(seed: int, n_cards: int, steps: int) -> None:
    s, info = _walk(seed, n_cards, steps)
    assume(not s.is_over and len(info.unseen) <= 4)
    agent = PimcAgent(samples=24)  # 4! = 24: every order is used once
    tallies = agent.evaluate(info, all_scores=True)
    plain = _plain_pimc(s, info.bottom)
    assert [t.action for t in tallies] == list(plain)
    for t in tallies:
        assert (t.wins, t.total_score) == plain[t.action]
        assert t.unproven == 0
    n_orders = len(list(itertools.permutations(info.unseen)))
    assert all(t.samples == n_orders for t in tallies)
    # Without all_scores, scores are computed only for the actions tied on most wins.
    lazy = agent.evaluate(info)
    top = max(w for w, _ in plain.values())
    tied = [a for a in plain if plain[a][0] == top]
    for t in lazy:
        assert t.wins == plain[t.action][0]
        scored = len(tied) > 1 and t.action in tied
        assert t.total_score == (plain[t.action][1] if scored else None)
    best = max(plain, key=lambda a: (plain[a][0], plain[a][1], -int(a)))
    action, _ = agent.choose(info)
    assert action == best or len(info.legal_actions()) == 1


def _race_twin(info: InfoState, first: int, cap: int, margin: int) -> int:
    """The slow twin of a race: every action won or lost on every order, one order at a
    time, then the race run on that table. How many orders the race stops at."""
    orders = sample_orders(info, cap, 0)
    won = [[t.wins for t in tally_actions(info, [o])] for o in orders]  # won[order][action]
    # with no more orders than cap, every order is used from the start
    n = len(orders) if len(orders) == math.factorial(len(info.unseen)) else first
    while True:
        wins = [sum(w[i] for w in won[:n]) for i in range(len(won[0]))]
        if n >= len(orders) or sum(w >= max(wins) - margin for w in wins) == 1:
            return n
        n = min(2 * n, len(orders))


@given(st.integers(0, 10**6), st.integers(9, 12), st.integers(0, 3), st.sampled_from([2, 4, 8]),
       st.sampled_from([4, 16]), st.integers(0, 2))
@settings(max_examples=40, deadline=None)
def test_a_race_is_pimc_over_the_orders_its_slow_twin_stops_at(
        seed: int, n_cards: int, steps: int, first: int, cap: int, margin: int) -> None:
    s, info = _walk(seed, n_cards, steps)
    assume(not s.is_over and len(info.legal_actions()) > 1 and len(info.unseen) > 1)
    cap = max(cap, first)
    agent = PimcAgent(samples=first, cap=cap, margin=margin)
    raced = agent.evaluate(info, all_scores=True)
    n = _race_twin(info, first, cap, margin)
    orders = sample_orders(info, cap, 0)
    # with no more orders than cap, every order is used from the start
    start = len(orders) if len(orders) == math.factorial(len(info.unseen)) else first
    every = race_actions(info, orders, start, margin, all_scores=True)
    assert every == tally_actions(info, orders[:n], all_scores=True)
    # scored over every order the race may draw, it is that race
    assert PimcAgent(samples=first, cap=cap, margin=margin, scored=cap).evaluate(
        info, all_scores=True) == every
    # the agent's race counts wins on every order drawn, scores on the first ones
    m = start
    scores = tally_actions(info, orders[:m], all_scores=True)
    for t, w, sc_ in zip(raced, every, scores, strict=True):
        assert (t.action, t.wins, t.samples, t.score_samples) == (w.action, w.wins, n, m)
        assert t.total_score == sc_.total_score and t.mean_score == sc_.mean_score
    # the first orders are the ones a PIMC of fewer samples draws (the same generator)
    assert n == len(orders) or orders[:first] == sample_orders(info, first, 0)
    assert n == len(orders) or n in {first * 2**k for k in range(6)}
    wins = sorted((t.wins for t in raced), reverse=True)
    assert wins[0] - wins[1] > margin or n == len(orders)
    # the action played is the best of the values shown, which rest on the same orders
    assert agent.choose(info)[0] == best_tally(raced).action


@given(st.integers(0, 10**6), st.integers(9, 12), st.integers(0, 3), st.sampled_from([2, 4]),
       st.sampled_from([0.0, 0.5, 2.0, 6.0]), st.booleans())
@settings(max_examples=40, deadline=None)
def test_a_race_of_scores_is_its_slow_twins(seed: int, n_cards: int, steps: int, first: int,
                                            score_margin: float, all_scores: bool) -> None:
    """The scores that break a tie of wins race too; the slow twin scores every action on
    every order (by PIMC's own tally, one order at a time) and runs that race on the table."""
    s, info = _walk(seed, n_cards, steps)
    assume(not s.is_over and len(info.legal_actions()) > 1 and len(info.unseen) > 1)
    cap = 16
    orders = sample_orders(info, cap, 0)
    start = len(orders) if len(orders) == math.factorial(len(info.unseen)) else first
    got = race_actions(info, orders, start, 1, all_scores=all_scores, scored=cap,
                       score_margin=score_margin)
    n = got[0].samples
    table = [tally_actions(info, [o], all_scores=True) for o in orders[:n]]  # [order][action]
    wins = [sum(t[i].wins for t in table) for i in range(len(got))]
    tied = [i for i, w in enumerate(wins) if w == max(wins)]
    m = min(start, n)
    while len(tied) > 1 and m < n:
        totals = sorted((sum(t[i].total_score or 0 for t in table[:m]) for i in tied),
                        reverse=True)
        if totals[0] - totals[1] > score_margin * m:
            break
        m = min(2 * m, n)
    for i, t in enumerate(got):
        assert t.wins == wins[i] and t.score_samples == m
        scored = all_scores or (len(tied) > 1 and i in tied)
        assert t.total_score == (sum(x[i].total_score or 0 for x in table[:m]) if scored
                                 else None)


def test_a_race_to_no_more_orders_is_plain_pimc() -> None:
    infos = [i for s, i in (_walk(seed, 14, 4) for seed in range(40))
             if not s.is_over and len(i.legal_actions()) > 1][:5]
    assert infos
    for info in infos:
        plain = PimcAgent(samples=4)
        assert PimcAgent(samples=4, cap=4, margin=3).evaluate(info) == plain.evaluate(info)
        assert PimcAgent(samples=4, cap=2).cap == 4  # a cap below the samples is the samples
        orders = sample_orders(info, 4)
        assert race_actions(info, orders, 4, 0) == tally_actions(info, orders)


def test_race_settings_are_checked() -> None:
    info = _walk(1, 14, 0)[1]
    for bad in ({"cap": 0}, {"cap": 10**5}, {"margin": -1}, {"cap": 2.5}, {"margin": True},
                {"scored": 0}, {"scored": "all"}):
        with pytest.raises(SolverError, match=next(iter(bad))):
            PimcAgent(samples=4, **bad)  # type: ignore[arg-type]
    orders = sample_orders(info, 4)
    for first, margin, scored, score_margin, name in (
            (0, 1, None, 1.0, "first"), (2, -1, None, 1.0, "margin"), (2, 1, 0, 1.0, "scored"),
            (2, 1, 4, -1.0, "score_margin"), (2, 1, 4, math.nan, "score_margin")):
        with pytest.raises(SolverError, match=f"^{name} "):
            race_actions(info, orders, first, margin, scored=scored, score_margin=score_margin)


@given(st.integers(0, 10**6), st.integers(5, 44), st.integers(0, 12), st.integers(1, 6))
@settings(max_examples=60, deadline=None)
def test_worlds_are_world_of_each_order(seed: int, n_cards: int, steps: int, k: int) -> None:
    """The fast path builds one position and repacks its dungeon for the other orders;
    its slow twin builds and checks each with ``world``."""
    s, info = _walk(seed, n_cards, steps)
    assume(not s.is_over and info.unseen)
    orders = sample_orders(info, k, seed)
    assert worlds(info, orders) == [world(info, o) for o in orders]
    bad = [*orders, tuple(info.unseen)[1:]]
    with pytest.raises(SolverError, match="not the unseen cards"):
        worlds(info, bad)
    assert worlds(info, []) == []


def test_world_keeps_everything_the_player_sees() -> None:
    s, info = next((s, i) for s, i in (_walk(seed, 14, 6) for seed in range(200))
                   if not s.is_over and i.bottom and i.weapon_value)
    d = s.dungeon
    assert world(info, d[: len(d) - len(info.bottom)]) == s
    with pytest.raises(SolverError, match="not the unseen cards"):
        world(info, d[:1])


def test_samples_are_orders_of_the_unseen_cards_and_depend_on_the_seed() -> None:
    info = InfoState.initial(sc.new_game(seed=5))
    orders = sample_orders(info, 8, seed=1)
    assert len(orders) == 8 and all(sorted(o) == sorted(info.unseen) for o in orders)
    assert orders == sample_orders(info, 8, seed=1)
    assert orders != sample_orders(info, 8, seed=2)
    with pytest.raises(SolverError, match="samples"):
        sample_orders(info, 0)


@given(st.integers(0, 10**6), st.integers(9, 13), st.integers(0, 4), st.randoms())
@settings(max_examples=15, deadline=None)
def test_same_seen_cards_same_decision(
    seed: int, n_cards: int, steps: int, shuffler: random.Random
) -> None:
    """Two deals that differ only in the order of the unseen cards get the same decision."""
    s, info = _walk(seed, n_cards, steps)
    assume(not s.is_over and len(info.unseen) >= 4)  # more orders than samples: sampled
    d = list(s.dungeon)
    nb = len(info.bottom)
    shuffled = d[: len(d) - nb]
    shuffler.shuffle(shuffled)
    other = s.with_dungeon(shuffled + d[len(d) - nb :])
    info2 = InfoState.from_state(other, info.bottom)
    assert info2 == info
    a = PimcAgent(samples=6, seed=3)
    b = PimcAgent(samples=6, seed=3)
    assert a.evaluate(info) == b.evaluate(info2)
    assert a.choose(info) == b.choose(info2)


class _Recorder:
    """Passes information states to an agent and keeps each (state, decision)."""

    def __init__(self, agent: PimcAgent) -> None:
        self.agent = agent
        self.seen: list[tuple[InfoState, Action]] = []

    def reset(self, seed: int) -> None:
        self.agent.reset(seed)

    def choose(self, info: InfoState) -> tuple[Action, bool]:
        a, exact = self.agent.choose(info)
        self.seen.append((info, a))
        return a, exact


def test_games_on_two_deals_agree_until_they_look_different() -> None:
    """Whole games: the agent sees only information states (the protocol gives it no
    State), so while both deals look the same to the player it plays the same moves."""
    deck = list(sc.parse_deck("8S 3D 5H KC 2C 7H 4S 9C 6D 10S 2H 5C", partial=True))
    other = deck[:8] + deck[8:][::-1]  # the last four cards in another order
    games = []
    for cards in (deck, other):
        rec = _Recorder(PimcAgent(samples=6, seed=1))
        g = play_with(rec, sc.new_game(deck=cards, partial=True))
        end = sc.play_line(sc.new_game(deck=cards, partial=True), g.line)
        assert end.is_over and end.score == g.score
        games.append(rec.seen)
    same = 0
    for (i1, a1), (i2, a2) in zip(*games, strict=False):
        if i1 != i2:
            break
        assert a1 == a2
        same += 1
    assert same >= 2  # the first room at least is common to both deals


def test_known_order_is_exact_perfect_play() -> None:
    """With at most one unseen card the order is known: the flag says exact, and the
    game reaches the perfect-information best score."""
    s = sc.new_game(deck="9S 3D 5H KC 2C", partial=True)
    g = play_with(PimcAgent(samples=2), s)
    assert all(g.exact) and g.score == brute_force(s)[0]


def test_options_are_checked_and_registered() -> None:
    agent = make_agent("pimc", samples=3, max_nodes=1000, seed=7)
    assert isinstance(agent, PimcAgent)
    assert (agent.samples, agent.max_nodes, agent.seed) == (3, 1000, 7)
    for bad in ({"samples": 0}, {"samples": 2.5}, {"max_nodes": 0}, {"seed": "x"}):
        with pytest.raises(SolverError):
            PimcAgent(**bad)


def test_node_limit_is_counted() -> None:
    info = InfoState.initial(sc.new_game(seed=3))
    agent = PimcAgent(samples=2, max_nodes=1)
    tallies = tally_actions(info, sample_orders(info, 2), max_nodes=1, stats=agent.stats)
    assert sum(t.unproven for t in tallies) == agent.stats.unproven > 0
    assert len(agent.stats.unproven_positions) == agent.stats.unproven


def test_unproven_positions_are_capped() -> None:
    """A long run keeps the count of unproven positions but the text of the first few only."""
    info = InfoState.initial(sc.new_game(seed=3))
    agent = PimcAgent(samples=2, max_nodes=1)
    while agent.stats.unproven <= UNPROVEN_KEPT:
        tally_actions(info, sample_orders(info, 2), max_nodes=1, stats=agent.stats)
    assert len(agent.stats.unproven_positions) == UNPROVEN_KEPT < agent.stats.unproven


def test_eval_passes_samples_to_pimc_only(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    made: list[tuple[str, dict[str, object]]] = []

    def fake(name: str, **opts: object) -> GreedyAgent:
        made.append((name, opts))
        return GreedyAgent()  # a full pimc game takes seconds: the wiring is what is tested

    monkeypatch.setattr(eval_cli, "make_agent", fake)
    monkeypatch.setattr(eval_cli, "_AGENTS", {})
    assert eval_cli.main(["--agent", "pimc", "--samples", "3", "--seeds", "0:1", "--quiet"]) == 0
    assert made == [("pimc", {"samples": 3})]
    capsys.readouterr()
    for argv, flag in ((["--agent", "fair", "--samples", "3"], "--samples"),
                       (["--agent", "pimc", "--budget", "5"], "--budget"),
                       (["--agent", "pimc", "--samples", "0"], "--samples")):
        assert eval_cli.main([*argv, "--seeds", "0:1", "--quiet"]) == 2
        err = capsys.readouterr().err
        assert flag in err and len(err.strip().splitlines()) == 1
