"""The one-ply learned policy: its fast paths against their slow twins, no peeking, the command."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from scoundrel_core import FULL_DECK, State
from scoundrel_core.info import ChanceNode, InfoState, observe
from scoundrel_solver.errors import SolverError
from scoundrel_solver.fair.api import make_agent, play_with
from scoundrel_solver.fair.value.policy import (
    EXACT_DEALS,
    Deals,
    ValuePolicy,
    _multisets,
    dealt_rows,
    dealt_rows_slow,
    exact_expectation,
)

POLICY = ValuePolicy()


def _walk(seed: int, n_cards: int, steps: int) -> tuple[State, InfoState]:
    """A position reached by random legal play from a random partial deck."""
    rng = random.Random(seed)
    s = sc.new_game(deck=rng.sample(FULL_DECK, n_cards), partial=True)
    info = InfoState.initial(s)
    for _ in range(steps):
        if s.is_over:
            break
        a = rng.choice(sc.legal_actions(s))
        s2 = sc.apply(s, a)
        info, s = observe(info, a, s2), s2
    return s, info


def _chance_nodes(info: InfoState) -> list[ChanceNode]:
    return [n for a in info.legal_actions() if isinstance(n := info.apply(a), ChanceNode)]


@given(st.integers(0, 10**6), st.integers(5, 44), st.integers(0, 12), st.integers(1, 300))
@settings(max_examples=40, deadline=None)
def test_dealt_rows_match_states_built_card_by_card(seed: int, n_cards: int, steps: int,
                                                    samples: int) -> None:
    """The fast rows (one dealt state, the others moved by counts) equal the features of
    every dealt state built one card at a time, exact deals and sampled ones alike."""
    s, info = _walk(seed, n_cards, steps)
    assume(not s.is_over)
    deals = Deals(info, samples)
    for node in _chance_nodes(info):
        counts, weights = deals.counts(min(node.to_draw, len(node.base.unseen)))
        assert abs(weights.sum() - 1.0) < 1e-9 and (weights > 0).all()
        assert np.array_equal(dealt_rows(node, counts), dealt_rows_slow(node, counts))


@given(st.integers(0, 10**6), st.integers(5, 11), st.integers(0, 10))
@settings(max_examples=25, deadline=None)
def test_exact_deals_are_the_chance_tree(seed: int, n_cards: int, steps: int) -> None:
    """Where the deals are few, the policy's value of a chance node is the walk of its
    chance tree card by card with exact probabilities (numpy model, states built one by one)."""
    s, info = _walk(seed, n_cards, steps)
    assume(not s.is_over)
    kinds = len({(c.kind, c.value) for c in info.unseen})
    values = {v.action: v for v in POLICY.evaluate(info)}
    for a in info.legal_actions():
        node = info.apply(a)
        if not isinstance(node, ChanceNode):
            continue
        assert _multisets(kinds, min(node.to_draw, len(node.base.unseen))) <= EXACT_DEALS
        w, score = exact_expectation(node, POLICY.model)
        assert values[a].win_chance == pytest.approx(w, abs=1e-9)
        assert values[a].expected_score == pytest.approx(score, abs=1e-7)


@given(st.integers(0, 10**6), st.integers(0, 30))
# random play often dies within 30 steps: those walks are skipped, cheaply
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_fast_evaluation_is_its_slow_twin(seed: int, steps: int) -> None:
    """The vectorised decision (fast rows, the model's kernel) against every dealt state
    built and evaluated by the numpy model, on full deals (sampled deals included)."""
    s, info = _walk(seed, 44, steps)
    assume(not s.is_over)
    fast, slow = POLICY.evaluate(info), POLICY.evaluate(info, fast=False)
    assert [v.action for v in fast] == [v.action for v in slow] == list(info.legal_actions())
    for f, w in zip(fast, slow, strict=True):
        assert f.exact == w.exact
        assert f.win_chance == pytest.approx(w.win_chance, abs=1e-9)
        assert f.expected_score == pytest.approx(w.expected_score, abs=1e-7)


def test_an_action_that_ends_the_game_is_its_true_outcome() -> None:
    info = InfoState.from_text("classic/strict health=5 weapon=- last=- potion=0 resolved=0 "
                               "fled=0 room=[4H 7C] dungeon=[]")
    values = {str(v.action): v for v in POLICY.evaluate(info)}
    assert (values["7C/f"].win_chance, values["7C/f"].expected_score) == (0.0, -2.0)
    assert values["7C/f"].exact and not values["4H"].exact  # 4H leaves 7C to fight
    action, exact = POLICY.choose(info)
    assert (str(action), exact) == ("4H", False)
    last = InfoState.from_text("classic/strict health=5 weapon=- last=- potion=0 resolved=0 "
                               "fled=0 room=[4H] dungeon=[]")
    [only] = POLICY.evaluate(last)
    assert (only.win_chance, only.expected_score, only.utility, only.exact) == (1.0, 9.0, 409.0,
                                                                                True)


@given(st.integers(0, 10**6), st.integers(6, 44), st.integers(0, 8), st.randoms())
@settings(max_examples=25, deadline=None)
def test_choice_ignores_order_of_unseen_cards(seed: int, n_cards: int, steps: int,
                                              shuffler: random.Random) -> None:
    """Two positions that differ only in the order of the unseen cards get the same values
    and the same decision (the deals are seeded from what the player sees)."""
    s, info = _walk(seed, n_cards, steps)
    assume(not s.is_over)
    d = list(s.dungeon)
    nb = len(info.bottom)
    unseen = d[: len(d) - nb]
    shuffler.shuffle(unseen)
    other = InfoState.from_state(s.with_dungeon(unseen + d[len(d) - nb:]), info.bottom)
    assert other == info
    assert ValuePolicy().evaluate(other) == POLICY.evaluate(info)
    assert ValuePolicy().choose(other) == POLICY.choose(info)


@given(st.integers(0, 2**32), st.integers(1, 30), st.randoms(use_true_random=False))
@settings(max_examples=8, deadline=None)
def test_same_seen_cards_same_decisions_in_full_games(seed: int, cut: int,
                                                      shuffler: random.Random) -> None:
    """Two full deals that agree on every card seen up to some moment: the policy plays the
    same actions until what it sees differs."""
    s = sc.new_game(seed=seed)
    info = InfoState.initial(s)
    for _ in range(cut):
        if s.is_over:
            break
        a, _ = POLICY.choose(info)
        s2 = sc.apply(s, a)
        info, s = observe(info, a, s2), s2
    assume(not s.is_over)
    unseen = list(s.dungeon)[: len(s.dungeon) - len(info.bottom)]
    deck = list(sc.deal(seed))
    slots = sorted(deck.index(c) for c in unseen)
    shuffler.shuffle(unseen)
    for i, c in zip(slots, unseen, strict=True):
        deck[i] = c

    def decisions(start: State) -> list[tuple[InfoState, sc.Action]]:
        out, st_, inf = [], start, InfoState.initial(start)
        player = ValuePolicy()
        while not st_.is_over:
            act, _ = player.choose(inf)
            out.append((inf, act))
            nxt = sc.apply(st_, act)
            inf, st_ = observe(inf, act, nxt), nxt
        return out

    one, two = decisions(sc.new_game(seed=seed)), decisions(sc.new_game(deck=deck))
    shared = 0
    for (i1, a1), (i2, a2) in zip(one, two, strict=False):
        if i1 != i2:
            break
        assert a1 == a2, i1.to_text()
        shared += 1
    assert shared >= min(cut, len(one))


@pytest.mark.parametrize("variant", ["classic", "hard", "easy"])
def test_plays_legal_games_to_the_end(variant: str) -> None:
    agent = make_agent("value")
    for seed in (1_000_000, 1_000_001):
        g = play_with(agent, seed, variant)
        end = sc.play_line(sc.new_game(seed=seed, variant=variant), g.line)
        assert end.is_over and end.score == g.score and end.won == g.won


def test_options_are_checked() -> None:
    assert make_agent("value", samples=8, utility="win").samples == 8  # type: ignore[attr-defined]
    with pytest.raises(SolverError, match="samples 0 must be"):
        make_agent("value", samples=0)
    with pytest.raises(SolverError, match="utility 'lose' must be one of bonus, win"):
        make_agent("value", utility="lose")
    with pytest.raises(SolverError, match=r"unknown options \['depth'\] of the value policy"):
        make_agent("value", depth=2)
    with pytest.raises(SolverError, match=r"cannot read value model 'nowhere\.json'"):
        make_agent("value", model="nowhere.json")
    with pytest.raises(SolverError, match="model 3 must be a ValueModel"):
        make_agent("value", model=3)


def test_a_model_file_is_played(tmp_path: Path) -> None:
    path = tmp_path / "model.json"
    POLICY.model.save(path)
    info = InfoState.initial(sc.new_game(seed=1_000_000))
    assert ValuePolicy(model=str(path)).evaluate(info) == POLICY.evaluate(info)


def test_eval_command_plays_the_policy(capsys: pytest.CaptureFixture[str]) -> None:
    from scoundrel_solver.cli.eval import main

    assert main(["--agent", "value", "--seeds", "0:3", "--json", "--quiet"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["agent"] == "value" and report["games"] == 3
    assert main(["--agent", "value", "--budget", "5", "--seeds", "0:1", "--quiet"]) == 2
    assert "--budget" in capsys.readouterr().err


def test_fit_on_own_games_refits_a_tiny_model() -> None:
    """A round of the policy's own games and a tiny fit: a model that the policy plays,
    recording its rounds; the evaluation seeds and unbounded work are refused."""
    pytest.importorskip("sklearn")
    from scoundrel_solver.fair.value.policy import fit_on_own_games, own_games

    x, won, score, game = own_games(POLICY, range(1_000_000, 1_000_002))
    assert x.shape == (len(won), len(POLICY.model.mean)) and set(game) == {1_000_000, 1_000_001}
    first = game == 1_000_000
    assert (score[first] == score[first][0]).all()
    won = np.where(first, 1.0, 0.0)  # outcomes of both kinds, whatever the games were
    [model] = fit_on_own_games((x, won, score, game), 1, 2, hidden=(4,), max_iter=2,
                               patience=1)
    assert model.fit["policy_rounds"] == 1 and model.fit["policy_seeds"] == "2000000-2000001"
    g = play_with(ValuePolicy(model), 1_000_000)
    assert sc.play_line(sc.new_game(seed=1_000_000), g.line).score == g.score
    with pytest.raises(SolverError, match="meet the evaluation seeds"):
        fit_on_own_games((x, won, score, game), 1, 2, first_seed=9_999)
    with pytest.raises(SolverError, match="rounds 0 and games 2"):
        fit_on_own_games((x, won, score, game), 0, 2)


# -- the value fitted on the policy's positions, the search as teacher ---------------------


class _Teacher:
    """A stand-in for the fair agent's search (cheap): every action worth its id."""

    def __init__(self) -> None:
        self.asked = 0

    def search_values(self, info: InfoState) -> list[object]:
        from scoundrel_solver.fair.agent import ActionValue

        self.asked += 1
        n = len(info.legal_actions())
        return [ActionValue(a, float(i) + 400 * (i + 1) / n, (i + 1) / n, float(i), False)
                for i, a in enumerate(info.legal_actions())]


def test_policy_positions_are_the_policys_decisions() -> None:
    """The decision states of the policy's game, one an action it played; the evaluation
    seeds are refused as training deals."""
    from scoundrel_solver.fair.value.policy_fit import label_games, policy_positions

    def choose(info: InfoState) -> sc.Action:
        return POLICY.choose(info)[0]

    game = play_with(POLICY, 1_000_003)
    infos = policy_positions(choose, 1_000_003, "classic")
    assert len(infos) == len(game.actions)
    assert [str(choose(i)) for i in infos] == list(game.actions)
    with pytest.raises(SolverError, match="evaluation seed"):
        label_games(choose, [5], "classic", "/nonexistent/labels.jsonl", agent=_Teacher())


def test_search_labels_are_the_searchs_values() -> None:
    """One search labels the decision (the values of the action the fair agent plays, its
    ``choose``) and each decision state one action away inside the room (that action's
    values, which a search from there gives again before the endgame)."""
    from scoundrel_solver.fair.agent import FairAgent
    from scoundrel_solver.fair.value.policy_fit import search_labels

    agent = FairAgent()
    s = sc.new_game(seed=1_000_004)
    info = InfoState.initial(s)
    seen = 0
    while not s.is_over and seen < 3:
        a, _ = POLICY.choose(info)
        nxt = sc.apply(s, a)
        info, s = observe(info, a, nxt), nxt
        if s.is_over or len(info.unseen) > 30:
            continue
        labels = search_labels(agent, info)
        values = {v.action: v for v in agent.search_values(info)}
        assert labels[0][0] is info
        if not agent.in_endgame(info):
            chosen = values[agent.choose(info)[0]]
            assert labels[0][1:] == pytest.approx((chosen.searched_win_chance,
                                                   chosen.expected_score), rel=1e-9)
        children = {after.to_text(): v for a, v in values.items()
                    if isinstance(after := info.apply(a), InfoState)}
        for child, win, score in labels[1:]:
            v = children[child.to_text()]
            # two searches of one position may differ in the last bits of a sum
            assert (win, score) == pytest.approx((v.searched_win_chance, v.expected_score),
                                                 rel=1e-9)
            assert not child.is_over
            if not agent.in_endgame(info):  # the child's own search agrees
                again = search_labels(agent, child)[0]
                assert again[1:] == pytest.approx((win, score), rel=1e-9, abs=1e-9)
        seen += 1


def test_label_games_appends_and_resumes(tmp_path: Path) -> None:
    """One line a game with every position labelled by the teacher; a rerun labels nothing
    again; the file reads back as arrays of the model's width."""
    from scoundrel_solver.fair.value.policy_fit import label_games, labels_in

    out = tmp_path / "labels.jsonl"
    teacher = _Teacher()
    choose = lambda info: POLICY.choose(info)[0]  # noqa: E731
    assert label_games(choose, [1_000_005, 1_000_006], "classic", out, agent=teacher) == 2
    assert label_games(choose, [1_000_005, 1_000_006], "classic", out, agent=teacher) == 0
    x, win, score, game = labels_in([out])
    assert teacher.asked == sum(len(play_with(POLICY, g).actions) for g in (1_000_005, 1_000_006))
    assert x.shape == (len(win), len(POLICY.model.mean)) and len(win) > teacher.asked
    assert set(game) == {1_000_005, 1_000_006} and len(score) == len(win)
    assert ((win > 0) & (win <= 1)).all() and (score >= 0).all()
    out.write_text('{"format": "other"}\n')
    with pytest.raises(SolverError, match="not a line of"):
        labels_in([out])


def test_fit_soft_learns_soft_win_chances() -> None:
    """A tiny fit on soft targets: held-out chances follow the targets, the model is played
    by the policy, its record names the teacher; bad inputs are refused."""
    pytest.importorskip("sklearn")
    from scoundrel_solver.fair.value.policy import own_games
    from scoundrel_solver.fair.value.policy_fit import fit_soft

    x, _, score, game = own_games(POLICY, range(1_000_000, 1_000_004))
    p = np.clip(x[:, 0] / 20.0, 0.0, 1.0)  # the chance grows with health
    model = fit_soft(x, p, score, game, (8,), alpha=1e-4, max_iter=60, patience=60,
                     learning_rate=1e-2)
    got = model.win(x)
    assert np.corrcoef(got, p)[0, 1] > 0.9
    assert model.fit["targets"].startswith("search values") and model.fit["rows"] == len(x)
    g = play_with(ValuePolicy(model), 1_000_000)
    assert sc.play_line(sc.new_game(seed=1_000_000), g.line).score == g.score
    with pytest.raises(SolverError, match=r"0\.\.1"):
        fit_soft(x, p + 1.0, score, game, (4,))
    with pytest.raises(SolverError, match="hidden layers"):
        fit_soft(x, p, score, game, (0,))
    with pytest.raises(SolverError, match="max_iter"):
        fit_soft(x, p, score, game, (4,), max_iter=0)


def test_base_labels_replay_the_agents_games(tmp_path: Path) -> None:
    """The fair agent's decisions with their search values, and the room's children of
    each with the values of the action that leads there; a game that leaves its rows is
    refused."""
    pq = pytest.importorskip("pyarrow.parquet")
    from scoundrel_solver.fair.value.policy_fit import base_labels

    table = pq.read_table(Path(__file__).parents[1] / "data" / "value-decisions-train.parquet")
    rows = table.slice(0, 200).to_pylist()
    seeds = sorted({r["seed"] for r in rows})[:2]
    rows = [r for r in rows if r["seed"] in seeds]
    path = tmp_path / "d.parquet"
    pq.write_table(table.from_pylist(rows, schema=table.schema), path)
    x, win, _, game = base_labels([path], children=False)
    assert len(x) == len(rows) and win.tolist() == [r["win_chance"] for r in rows]
    x2, win2, _, game2 = base_labels([path])
    assert len(x2) > len(x) and set(game2) == set(seeds)
    assert ((win2 >= 0) & (win2 <= 1)).all()
    first = int((game == seeds[0]).sum())  # the first game's decisions, then their children
    assert np.array_equal(x2[:first], x[:first]) and (game2[:first] == seeds[0]).all()
    rows[1] = {**rows[1], "health": rows[1]["health"] - 1}
    pq.write_table(table.from_pylist(rows, schema=table.schema), path)
    with pytest.raises(SolverError, match="leaves its row"):
        base_labels([path])
