"""The one-ply policy's ranking fit: its rows are the policy's, its loss and gradient against
a numpy twin, a tiny refit that lowers the ranking loss, and its inputs checked."""

from __future__ import annotations

import functools
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from scoundrel_core.info import InfoState, observe
from scoundrel_solver.errors import SolverError
from scoundrel_solver.fair.value.features import FEATURES
from scoundrel_solver.fair.value.model import Net, ValueModel
from scoundrel_solver.fair.value.policy import EXACT_DEALS, SAMPLES, ValuePolicy

jax = pytest.importorskip("jax")
pytest.importorskip("optax")

pytestmark = pytest.mark.jax  # last in the run: see conftest.py

from scoundrel_solver.fair.value.policy_rank import (  # noqa: E402
    MAX_ACTIONS,
    MAX_EPOCHS,
    RankSet,
    decision_rows,
    fit_rank,
    rank_loss,
    rank_loss_slow,
    rank_set,
    rank_set_of_play,
    rank_set_of_positions,
    rank_sets_joined,
    with_order,
)

F = len(FEATURES)
DATA = Path(__file__).parents[1] / "data" / "value-decisions-train.parquet"


@functools.cache
def _games(n: int) -> tuple[tuple[dict[str, Any], ...], ...]:
    """The first ``n`` games of the fair agent's decisions file, each in order."""
    pq = pytest.importorskip("pyarrow.parquet")
    rows = pq.read_table(DATA).slice(0, 60 * n).to_pylist()
    seeds = sorted({r["seed"] for r in rows})[:n]
    return tuple(tuple(sorted((r for r in rows if r["seed"] == s), key=lambda r: r["decision"]))
                 for s in seeds)


def _model(rng: np.random.Generator, hidden: int) -> ValueModel:
    def net() -> Net:
        return Net(((rng.normal(0, 0.3, (F, hidden)), rng.normal(0, 0.1, hidden)),
                    (rng.normal(0, 0.3, (hidden, 1)), rng.normal(0, 0.1, 1))))

    return ValueModel(rng.normal(0, 1, F), rng.uniform(0.5, 2, F), net(), net(),
                      float(rng.normal(0, 10)), float(rng.uniform(5, 50)))


def _set(rng: np.random.Generator, decisions: int) -> RankSet:
    """A generated set: 1..5 actions a decision, some ending the game, 1..4 rows the rest."""
    n_actions = rng.integers(1, 6, decisions)
    ends = rng.random(int(n_actions.sum())) < 0.2
    n_rows = np.where(ends, 0, rng.integers(1, 5, len(ends)))
    weight = np.concatenate([rng.dirichlet(np.ones(k)) if k else np.zeros(0) for k in n_rows])
    return RankSet(
        rng.normal(0, 2, (int(n_rows.sum()), F)).astype(np.float32), weight.astype(np.float32),
        np.concatenate([[0], np.cumsum(n_rows)]), np.concatenate([[0], np.cumsum(n_actions)]),
        ends, np.where(ends, rng.integers(0, 2, len(ends)), 0).astype(np.float32),
        np.where(ends, rng.normal(0, 20, len(ends)), 0).astype(np.float32),
        rng.uniform(0, 1, len(ends)).astype(np.float32),
        rng.normal(-20, 30, len(ends)).astype(np.float32),
        np.arange(decisions, dtype=np.int64) // 3 + 1_000_000, 40.0)


@given(st.integers(0, 10**6), st.integers(1, 8), st.sampled_from([0.5, 5.0, 50.0]),
       st.sampled_from([0.0, 1.0]), st.sampled_from([0.0, 1e-3]))
@settings(max_examples=25, deadline=None)
def test_loss_is_its_slow_twin(seed: int, decisions: int, temperature: float,
                               abs_weight: float, l2: float) -> None:
    """The JAX loss equals the numpy twin's on generated sets and models, and its gradient
    the twin's central differences on a few weights of each network."""
    rng = np.random.default_rng(seed)
    model, rs = _model(rng, 4), _set(rng, decisions)
    value, grad = rank_loss(model, rs, temperature, abs_weight, l2)
    slow = rank_loss_slow(model, rs, temperature, abs_weight, l2)
    assert value == pytest.approx(slow, rel=1e-4, abs=1e-4)
    for which in ("win", "score"):
        for layer, (i, j) in ((0, (int(rng.integers(F)), int(rng.integers(4)))), (1, (0, 0))):
            net = model.win_net if which == "win" else model.score_net
            h = 1e-4

            def moved(d: float, net: Net = net, layer: int = layer, i: int = i,
                      j: int = j, which: str = which) -> float:
                layers = [(w.copy(), b.copy()) for w, b in net.layers]
                layers[layer][0][i if layer == 0 else j, j if layer == 0 else 0] += d
                other = Net(tuple(layers))
                m = ValueModel(model.mean, model.scale,
                               other if which == "win" else model.win_net,
                               other if which == "score" else model.score_net,
                               model.score_mean, model.score_scale)
                return rank_loss_slow(m, rs, temperature, abs_weight, l2)

            numeric = (moved(h) - moved(-h)) / (2 * h)
            got = grad[which][layer][0][i if layer == 0 else j, j if layer == 0 else 0]
            assert got == pytest.approx(numeric, rel=2e-2, abs=2e-3)


def test_rows_are_the_policys() -> None:
    """With the policy's deals (its samples, its exact bound), each action's mean of the
    model over its rows is the policy's own value of that action."""
    policy = ValuePolicy()
    game = _games(1)[0]
    s = sc.new_game(seed=int(game[0]["seed"]))
    info = InfoState.initial(s)
    for r in game[:12]:
        actions = [sc.parse_action(info, t) for t in r["actions"]]
        got = decision_rows(info, actions, SAMPLES, EXACT_DEALS)
        want = {v.action: v for v in policy.evaluate(info, fast=False)}
        for a, (outcome, rows, w) in zip(actions, got, strict=True):
            if outcome is not None:
                assert outcome == (want[a].win_chance, want[a].expected_score)
            else:
                assert float(w @ policy.model.win(rows, fast=False)) == pytest.approx(
                    want[a].win_chance, abs=1e-12)
        a = sc.parse_action(s, r["action"])
        nxt = sc.apply(s, a)
        info, s = observe(info, a, nxt), nxt


def test_set_of_games_joins_saves_and_refuses(tmp_path: Path) -> None:
    """A set of two games is the join of each game's; it survives a file; teacher values
    are the file's; a game that leaves its rows and an evaluation seed are refused."""
    games = _games(2)
    both = rank_set(games)
    joined = rank_sets_joined([rank_set(games[:1]), rank_set(games[1:])])
    for k in ("x", "weight", "action_rows", "decision_actions", "ends", "teacher_win", "game"):
        assert np.array_equal(getattr(both, k), getattr(joined, k)), k
    assert both.decisions == sum(len(g) for g in games) and both.bonus == 400
    assert both.teacher_win.tolist() == pytest.approx(
        [w for g in games for r in g for w in r["action_win_chances"]])
    both.save(tmp_path / "s.npz")
    again = RankSet.load(tmp_path / "s.npz")
    assert np.array_equal(again.x, both.x) and again.bonus == both.bonus
    bad = [dict(r) for r in games[0]]
    bad[3]["health"] -= 1
    with pytest.raises(SolverError, match="leaves its row"):
        rank_set([bad])
    with pytest.raises(SolverError, match="evaluation seed"):
        rank_set([[{**r, "seed": 7} for r in games[0]]])
    with pytest.raises(SolverError, match="measured deal"):
        rank_set([[{**r, "seed": 1_900_123} for r in games[0]]])
    with pytest.raises(SolverError, match="measured deal"):
        rank_set_of_play(lambda info: info.legal_actions()[0], [1_900_000], "classic")
    with pytest.raises(SolverError, match="deals"):
        rank_set(games[:1], deals=0)


def test_a_model_widened_to_the_order_plays_as_before() -> None:
    """A set with the bottom's order holds the rows without it, then the order block; the
    shipped value widened to read it gives the same values on those rows and plays the
    same decisions; a fit refuses a start of the other features, a join sets of both."""
    games = _games(2)
    plain, ordered = rank_set(games, 16, 32), rank_set(games, 16, 32, order=True)
    assert ordered.order and not plain.order
    assert np.array_equal(ordered.x[:, :F], plain.x)
    shipped = ValuePolicy().model
    wide = with_order(shipped, ordered)
    assert wide.order and with_order(wide, ordered) is wide
    x = ordered.x.astype(np.float64)
    assert np.allclose(wide.win(x), shipped.win(plain.x.astype(np.float64)), atol=1e-9)
    assert np.allclose(wide.score(x), shipped.score(plain.x.astype(np.float64)), atol=1e-6)
    for seed in (1_000_000, 1_000_001):
        assert play_with_line(ValuePolicy(wide), seed) == play_with_line(ValuePolicy(), seed)
    with pytest.raises(SolverError, match="different features"):
        fit_rank(ordered, shipped, epochs=1)
    with pytest.raises(SolverError, match="different features"):
        rank_sets_joined([plain, ordered])
    with pytest.raises(SolverError, match="bottom's order"):
        with_order(shipped, plain)


def test_a_set_of_positions_is_labelled_by_the_search() -> None:
    """Given positions: each decision's rows are the policy's rows there and its teacher
    values the fair agent's search values; the held-out split's seed is the one given;
    evaluation seeds and another variant's positions are refused."""
    from scoundrel_solver.fair.agent import FairAgent

    s = sc.new_game(seed=1_000_003)
    info = InfoState.initial(s)
    late = InfoState.from_text(
        "classic/strict health=3 weapon=6D last=- potion=0 resolved=1 fled=0 room=[8S 4C 7D] "
        "dungeon=[5C 6C 8C 9D 3H 10H 3S 4S] | bottom=[3H 10H 3S 4S]")
    rs = rank_set_of_positions([(1_000_003, info), (1_000_004, late)], "classic", deals=4,
                               exact=8, order=True)
    assert rs.decisions == 2 and rs.game.tolist() == [1_000_003, 1_000_004] and rs.order
    teacher = FairAgent()
    for d, pos in enumerate((info, late)):
        values = teacher.search_values(pos)
        acts = range(int(rs.decision_actions[d]), int(rs.decision_actions[d + 1]))
        assert rs.teacher_win[list(acts)].tolist() == pytest.approx(
            [v.searched_win_chance for v in values], abs=1e-6)
        rows = decision_rows(pos, [v.action for v in values], 4, 8, order=True)
        for a, (_, x, w) in zip(acts, rows, strict=True):
            lo, hi = int(rs.action_rows[a]), int(rs.action_rows[a + 1])
            assert np.array_equal(rs.x[lo:hi], x.astype(np.float32))
            assert np.allclose(rs.weight[lo:hi], w)
    with pytest.raises(SolverError, match="evaluation seed"):
        rank_set_of_positions([(5, info)], "classic")
    with pytest.raises(SolverError, match="not hard"):
        rank_set_of_positions([(1_000_003, info)], "hard")


def play_with_line(policy: ValuePolicy, seed: int) -> str:
    from scoundrel_solver.fair.api import play_with

    return play_with(policy, seed).line


def test_tiny_refit_lowers_the_ranking_loss() -> None:
    """A tiny model fitted from scratch on two games: its ranking loss falls, its record
    names the fit, and the policy plays it."""
    rs = rank_set(_games(2))
    model = fit_rank(rs, None, hidden=(8,), epochs=25, batch_decisions=32,
                     learning_rate=1e-2, abs_weight=0.1, fit={"command": "test"})
    history = model.fit["history"]
    assert len(history) == 26 and history[-1]["rank_loss"] < 0.8 * history[0]["rank_loss"]
    assert model.fit["command"] == "test" and model.fit["decisions"] == rs.decisions
    assert 0 <= model.fit["kept_epoch"] <= 25
    kept = history[model.fit["kept_epoch"]]["regret"]
    assert kept == min(h["regret"] for h in history)
    from scoundrel_solver.fair.api import play_with

    g = play_with(ValuePolicy(model), 1_000_000)
    assert sc.play_line(sc.new_game(seed=1_000_000), g.line).score == g.score


def test_inputs_are_checked() -> None:
    rng = np.random.default_rng(1)
    model, rs = _model(rng, 4), _set(rng, 6)
    for kw, match in (({"temperature": 0.0}, "temperature"),
                      ({"temperature": math.nan}, "temperature"),
                      ({"abs_weight": -1.0}, "abs_weight"), ({"l2": 2.0}, "l2"),
                      ({"epochs": 0}, "epochs"), ({"epochs": MAX_EPOCHS + 1}, "epochs"),
                      ({"batch_decisions": 0}, "batch_decisions"),
                      ({"learning_rate": 0.0}, "learning_rate")):
        with pytest.raises(SolverError, match=match):
            fit_rank(rs, model, **kw)
    with pytest.raises(SolverError, match="temperature"):
        rank_loss(model, rs, -1.0, 1.0)
    broken = RankSet(**{**vars(rs), "teacher_win": rs.teacher_win + 2})
    with pytest.raises(SolverError, match=r"0\.\.1"):
        rank_loss_slow(model, broken, 1.0, 1.0)
    short = RankSet(**{**vars(rs), "weight": rs.weight[:-1]})
    with pytest.raises(SolverError, match="do not fit"):
        fit_rank(short, model)
    big = _set(rng, 40)  # at least 40 actions, in one decision
    many = RankSet(**{**vars(big), "decision_actions": np.array([0, len(big.ends)]),
                      "game": big.game[:1]})
    with pytest.raises(SolverError, match=f"more than {MAX_ACTIONS} actions"):
        fit_rank(many, model)
