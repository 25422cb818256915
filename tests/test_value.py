"""The learned value: its training data, calibration measure, model file and inference twins."""

from __future__ import annotations

import contextlib
import importlib.util
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from scoundrel_core.info import InfoState, observe
from scoundrel_solver.errors import SolverError
from scoundrel_solver.fair.value.calibration import calibration_report, ece, reliability
from scoundrel_solver.fair.value.features import (
    FEATURES,
    UNSEEN_COLUMNS,
    features_of,
    features_of_row,
    phase,
    state_row,
)
from scoundrel_solver.fair.value.model import Net, ValueModel, load_model
from scoundrel_solver.fair.value.selfplay import (
    DECISION_COLUMNS,
    MAX_EXPLORE,
    decision_rows,
    explored_opening,
    games_in,
    play_recorded,
    record_games,
    to_parquet,
)

VARIANTS = [f"{f}/{w}" for f in sc.FLEE_RULES for w in sc.WEAPON_RULES]


def _infos(seed: int, variant: str) -> list[InfoState]:
    """The information states of a game of random moves."""
    rng = random.Random(seed)
    v = sc.get_variant(variant)
    s = sc.new_game(seed=seed, variant=v.name, weapon_rule=v.weapon_rule)
    info = InfoState.initial(s)
    out = [info]
    while not s.is_over:
        a = rng.choice(sc.legal_actions(s))
        s2 = sc.apply(s, a)
        info = observe(info, a, s2)
        s = s2
        if not s.is_over:
            out.append(info)
    return out


@given(st.integers(0, 2**32), st.sampled_from(VARIANTS))
@settings(max_examples=30, deadline=None)
def test_a_rows_features_are_the_info_states(seed: int, variant: str) -> None:
    for info in _infos(seed, variant):
        row = json.loads(json.dumps(state_row(info)))  # as the data file keeps it
        x = features_of(info)
        assert x.shape == (len(FEATURES),)
        assert np.array_equal(features_of_row(row, variant), x)
        f = dict(zip(FEATURES, x.tolist(), strict=True))
        assert f["unseen"] == len(info.unseen) == sum(row[c] for c in UNSEEN_COLUMNS)
        assert f["health"] == info.health and f["reach"] == info.weapon_reach
        assert f["pool_monsters"] == info.monsters_left()
        assert row["cards_left"] == len(info.unseen) + len(info.bottom)


def test_features_see_only_what_the_player_sees() -> None:
    """Two deals that share the first room but not the dungeon's order: same features."""
    a = sc.new_game(seed=5)
    dungeon = list(a.dungeon)
    random.Random(1).shuffle(dungeon)
    b = sc.State.from_parts(dungeon=dungeon, room=a.room, health=a.health, weapon=None,
                            last_kill=None, potion_used=False, resolved=0, fled=False,
                            variant=a.variant)
    assert a.dungeon != b.dungeon
    assert np.array_equal(features_of(InfoState.initial(a)), features_of(InfoState.initial(b)))


def test_phases() -> None:
    assert [phase(u) for u in (40, 31, 30, 13, 12, 0)] == [
        "open", "open", "middle", "middle", "end", "end"]


def test_ece_and_reliability() -> None:
    p = np.array([0.05, 0.05, 0.95, 0.95, 1.0])
    y = np.array([0.0, 0.0, 1.0, 1.0, 1.0])
    table = reliability(p, y, 10)
    assert [(r["rows"], r["won"]) for r in table] == [(2, 0.0), (3, 1.0)]
    assert ece(p, y, 10) == pytest.approx(100 * (2 * 0.05 + 2 * 0.05 + 0.0) / 5)
    assert ece(np.array([0.7] * 10), np.array([1.0] * 7 + [0.0] * 3)) == pytest.approx(0.0)


# -- the data -------------------------------------------------------------------------------


def test_a_recorded_game_is_the_agents_game() -> None:
    from scoundrel_solver.fair.agent import FairAgent
    from scoundrel_solver.fair.api import play_fair

    agent = FairAgent()
    g = play_recorded(1_000_003, sc.get_variant("classic/strict"), agent)
    fair = play_fair(1_000_003, agent=FairAgent())
    assert [d["actions"][d["chosen"]] for d in g["decisions"]] == list(fair.actions)
    assert (g["score"], g["won"]) == (fair.score, fair.won)
    first = g["decisions"][0]
    values = FairAgent().evaluate(InfoState.initial(sc.new_game(seed=1_000_003)))
    assert first["actions"] == [str(v.action) for v in values]
    assert first["action_win_chances"] == [v.searched_win_chance for v in values]
    assert first["unseen"] == 40 and first["cards_left"] == 40
    # the endgame's values are sampled orders, and say so
    assert any(d["samples"] == 8 for d in g["decisions"] if 0 < d["unseen"] <= 24)


def test_record_games_resumes_and_flattens(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    v = sc.get_variant("hard/strict")  # short games
    assert record_games(range(1_000_000, 1_000_002), v, out) == 2
    # a stop mid-write leaves half a line: it is not a game, and the rerun plays it again
    with out.open("a") as f:
        f.write('{"format": "scoundrel-value-games/1", "seed": 1000002, "var')
    assert record_games(range(1_000_000, 1_000_003), v, out) == 1
    assert sorted(g["seed"] for g in games_in(out)) == [1_000_000, 1_000_001, 1_000_002]
    assert record_games(range(1_000_000, 1_000_003), v, out, stop=lambda: True) == 0
    pq = pytest.importorskip("pyarrow.parquet")
    games, rows = to_parquet([out], tmp_path / "d.parquet", {"command": "test"})
    t = pq.read_table(tmp_path / "d.parquet")
    assert games == 3 and t.num_rows == rows == sum(len(g["decisions"]) for g in games_in(out))
    assert tuple(t.column_names) == DECISION_COLUMNS
    r = t.slice(0, 1).to_pylist()[0]
    assert r["decision"] == 0 and r["variant"] == "hard/strict" and r["phase"] == "open"
    assert r["action"] in r["actions"] and 0 <= r["win_chance"] <= 1
    report = calibration_report(tmp_path / "d.parquet", bins=10)
    assert report["games"] == 3 and report["shown"]["all"]["rows"] == rows
    assert report["explored"] == 0
    assert report["shown"]["first"]["rows"] == 3
    # a Parquet file grows by joining it with more games; a game found twice is kept once
    more = tmp_path / "more.jsonl"
    assert record_games(range(1_000_002, 1_000_004), v, more) == 2
    games, _ = to_parquet([tmp_path / "d.parquet", more], tmp_path / "e.parquet")
    grown = pq.read_table(tmp_path / "e.parquet").to_pylist()
    assert games == 4
    assert sorted({r["seed"] for r in grown}) == list(range(1_000_000, 1_000_004))
    kept = [r for r in t.to_pylist() if r["seed"] < 1_000_002]
    assert grown[:len(kept)] == kept
    again = [r for g in games_in(more) for r in decision_rows(g)]
    assert grown[len(kept):] == again  # seed 1,000,002 from the later file
    (tmp_path / "x.parquet").write_text("not parquet")
    with pytest.raises(SolverError, match=r"x\.parquet: not a Parquet file"):
        to_parquet([tmp_path / "x.parquet"], tmp_path / "f.parquet")


def test_an_explored_game_opens_with_its_seeds_random_moves_and_records_the_agents(
        tmp_path: Path) -> None:
    from scoundrel_solver.fair.agent import FairAgent, choice

    v = sc.get_variant("easy/strict")
    counts = set()
    lines = []
    for seed in range(2_000_000, 2_000_012):
        k, rng = explored_opening(seed, 5)
        counts.add(k)
        again, rng2 = explored_opening(seed, 5)
        assert k == again and rng.random() == rng2.random()  # the seed decides, every run
        g = play_recorded(seed, v, FairAgent(), explore=5)
        lines.append(g)
        assert (g["explore"], g["explored"]) == (5, k) and 0 <= k <= 5
        # replay: k random moves drawn as the opening draws them, then the agent's
        _, rng = explored_opening(seed, 5)
        s = sc.new_game(seed=seed, variant=v.name, weapon_rule=v.weapon_rule)
        info = InfoState.initial(s)
        for _ in range(k):
            if s.is_over:
                break
            a = rng.choice(sc.legal_actions(s))
            s2 = sc.apply(s, a)
            info, s = observe(info, a, s2), s2
        if s.is_over:  # lost during the opening: no decision of the agent's to record
            assert g["decisions"] == [] and not g["won"]
            continue
        d = g["decisions"][0]
        assert (d["health"], d["unseen"], d["room"]) == (info.health, len(info.unseen),
                                                         [str(c) for c in info.room])
        best = choice(info, FairAgent().evaluate(info))
        assert best is not None and d["actions"][d["chosen"]] == str(best.action)
        recorded = [r["decision"] for r in decision_rows(g)]
        assert recorded == list(range(k, k + len(g["decisions"])))
    assert len(counts) > 2
    # the calibration report counts the games whose opening was explored
    (tmp_path / "g.jsonl").write_text("".join(json.dumps(g) + "\n" for g in lines))
    report = calibration_report(tmp_path / "g.jsonl")
    assert report["explored"] == sum(1 for g in lines if g["explored"] and g["decisions"])
    assert report["games"] == sum(1 for g in lines if g["decisions"])
    # a game lost during its opening has no row, so a Parquet file's count leaves it out
    lost = dict(lines[0], seed=2_000_999, decisions=[], won=False)
    with (tmp_path / "g.jsonl").open("a") as f:
        f.write(json.dumps(lost) + "\n")
    if importlib.util.find_spec("pyarrow") is not None:
        games, rows = to_parquet([tmp_path / "g.jsonl"], tmp_path / "g.parquet")
        assert games == report["games"] and rows == report["shown"]["all"]["rows"]
    with pytest.raises(SolverError, match=r"explore 41 must be an integer 0\.\.40"):
        explored_opening(1, MAX_EXPLORE + 1)


def test_one_file_holds_one_way_of_playing(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    v = sc.get_variant("hard/strict")
    assert record_games(range(1_000_000, 1_000_001), v, out, explore=3) == 1
    with pytest.raises(SolverError, match="played with explore 3, not 0: write to another"):
        record_games(range(1_000_000, 1_000_002), v, out)
    with pytest.raises(SolverError, match="explore -1 must be"):
        record_games(range(1), v, tmp_path / "other.jsonl", explore=-1)
    assert not (tmp_path / "other.jsonl").exists()
    # the same seed played both ways, in two files, is two games to a fit
    from scoundrel_solver.fair.value.train import decision_rows_of, load_examples

    own = tmp_path / "own.jsonl"
    assert record_games(range(1_000_000, 1_000_001), v, own) == 1
    rows, what = decision_rows_of([out, own])
    assert what["games"] == 2 and {r["file"] for r in rows} == {0, 1}
    *_, groups, _ = load_examples([out, own])
    assert len(set(groups.tolist())) == 2


def test_a_file_of_something_else_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "x.jsonl"
    bad.write_text('{"seed": 1}\n')
    with pytest.raises(SolverError, match=r"x\.jsonl:1: not a game"):
        list(games_in(bad))


# -- the model ------------------------------------------------------------------------------


def _random_model(rng: np.random.Generator, hidden: list[int]) -> ValueModel:
    def net() -> Net:
        widths = [len(FEATURES), *hidden, 1]
        return Net(tuple((rng.normal(0, 0.3, (a, b)), rng.normal(0, 0.3, b))
                         for a, b in itertools.pairwise(widths)))

    mean = rng.normal(0, 3, len(FEATURES))
    scale = rng.uniform(0.5, 5, len(FEATURES))
    return ValueModel(mean, scale, net(), net(), -50.0, 80.0)


@given(st.integers(0, 2**32), st.lists(st.integers(1, 40), min_size=1, max_size=3),
       st.sampled_from(VARIANTS))
@settings(max_examples=40, deadline=None)
def test_the_kernel_and_its_numpy_twin_agree(seed: int, hidden: list[int], variant: str
                                             ) -> None:
    model = _random_model(np.random.default_rng(seed), hidden)
    x = np.stack([features_of(i) for i in _infos(seed, variant)])
    for fast, slow in ((model.win(x), model.win(x, fast=False)),
                       (model.score(x), model.score(x, fast=False))):
        assert fast.shape == (len(x),)
        np.testing.assert_allclose(fast, slow, rtol=1e-9, atol=1e-9)
    assert ((model.win(x) >= 0) & (model.win(x) <= 1)).all()


def test_the_facade_checks_its_input() -> None:
    model = _random_model(np.random.default_rng(0), [3])
    with pytest.raises(SolverError, match="rows of 110 features"):
        model.win(np.zeros((2, 5)))
    with pytest.raises(SolverError, match="not finite"):
        model.win(np.full(len(FEATURES), np.nan))
    assert model.win(np.zeros(len(FEATURES))).shape == (1,)


def test_a_model_file_round_trips_and_bad_ones_are_named(tmp_path: Path) -> None:
    model = _random_model(np.random.default_rng(1), [5, 4])
    path = tmp_path / "m.json"
    model.save(path)
    x = np.random.default_rng(2).normal(5, 5, (20, len(FEATURES)))
    assert np.array_equal(load_model(path).win(x), model.win(x))
    data = json.loads(path.read_text())
    data["win"]["layers"][1]["weights"] = [[1.0]]
    path.write_text(json.dumps(data))
    with pytest.raises(SolverError, match="win: layer 1 has shape"):
        load_model(path)
    path.write_text("[1, 2")
    with pytest.raises(SolverError, match="is not JSON"):
        load_model(path)
    with pytest.raises(SolverError, match="cannot read value model"):
        load_model(tmp_path / "missing.json")


def test_a_tiny_model_refits_in_seconds(tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    from scoundrel_solver.fair.value.train import fit_arrays

    rng = random.Random(0)
    infos = [i for s in range(40) for i in _infos(s, "classic/strict")]
    x = np.stack([features_of(i) for i in infos])
    # a made-up outcome the features decide: health above 10 wins
    won = (x[:, FEATURES.index("health")] > 10).astype(float)
    score = x[:, FEATURES.index("health")] - x[:, FEATURES.index("pool_monsters")]
    t = time.perf_counter()
    model = fit_arrays(x, won, score, (8,), max_iter=100, learning_rate=0.01, alpha=1e-4,
                       seed=rng.randrange(100))
    assert time.perf_counter() - t < 30
    p = model.win(x)
    assert p[won == 1].mean() > p[won == 0].mean() + 0.3
    assert np.corrcoef(model.score(x), score)[0, 1] > 0.8
    np.testing.assert_allclose(model.win(x), model.win(x, fast=False), rtol=1e-9, atol=1e-12)
    model.save(tmp_path / "m.json")
    assert load_model(tmp_path / "m.json").fit["hidden"] == [8]


def test_training_refuses_evaluation_seeds(tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    from scoundrel_solver.fair.value.train import load_examples

    out = tmp_path / "g.jsonl"
    record_games([9_999], sc.get_variant("hard/strict"), out)
    with pytest.raises(SolverError, match="seed 9999 is an evaluation seed"):
        load_examples([out])


# -- the command ----------------------------------------------------------------------------


def _value_command(*argv: str) -> list[str]:
    return [sys.executable, "-m", "scoundrel_solver.cli.value", *argv]


def _env() -> dict[str, str]:
    src = str(Path(__file__).resolve().parents[1] / "src")
    return {**os.environ, "PYTHONPATH": src}


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_keeps_whole_games_and_the_rerun_resumes(tmp_path: Path, sig: int) -> None:
    out = tmp_path / "g.jsonl"
    proc = subprocess.Popen(
        _value_command("data", "--variant", "hard/strict", "--seeds", "1000000:1000100",
                       "--out", str(out), "--quiet"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(), start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while not (out.exists() and out.read_bytes().count(b"\n") >= 1):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no game written in 300 s"
            time.sleep(0.05)
        os.killpg(proc.pid, sig)  # as a terminal or `kill` sends it: to the whole group
        _, err = proc.communicate(timeout=120)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 128 + sig if sig != signal.SIGINT else proc.returncode == 130
    assert b"Traceback" not in err and b"the same command resumes" in err
    games = list(games_in(out))  # every line whole
    assert out.read_bytes().endswith(b"\n") and 1 <= len(games) < 100
    done = {g["seed"] for g in games}
    more = record_games(range(1_000_000, 1_000_000 + len(games) + 1),
                        sc.get_variant("hard/strict"), out)
    assert more == 1 and len({g["seed"] for g in games_in(out)} - done) == 1


def test_the_command_refuses_bad_input_in_one_line(tmp_path: Path) -> None:
    for argv, words in [
        (["data", "--seeds", "0:2000000", "--out", str(tmp_path / "x")], "at most 1,000,000"),
        (["data", "--out", str(tmp_path / "x")], "needs --seeds"),
        (["fit", str(tmp_path / "none.parquet"), "--out", "m.json"], "no decisions file"),
        (["fit", str(tmp_path / "none.parquet"), "--out", "m.json", "--hidden", "0"],
         "--hidden '0'"),
        (["calibration", str(tmp_path), "--bins", "1000"], "at most 100"),
        (["data", "--seeds", "0:2", "--explore", "41", "--out", str(tmp_path / "x")],
         "--explore 41: 0..40"),
    ]:
        done = subprocess.run(_value_command(*argv), capture_output=True, text=True,
                              env=_env(), timeout=120)
        assert done.returncode == 2, (argv, done.stderr)
        assert words in done.stderr and "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
