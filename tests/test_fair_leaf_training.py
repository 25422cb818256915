"""scripts/train_fair_leaf.py and the shipped win model it wrote."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import scoundrel_core as sc
from conftest import load_script
from scoundrel_core.info import InfoState, observe
from scoundrel_solver.fair import leaf
from scoundrel_solver.fair.agent import FairAgent
from scoundrel_solver.fair.config import AGENT_CONFIGS, configs_with


def _script() -> ModuleType:
    return load_script("train_fair_leaf")


def test_shipped_model_matches_the_features() -> None:
    data = json.loads(Path(leaf.__file__).with_name(leaf.MODEL_FILE).read_text())
    assert tuple(data["features"]) == leaf.FEATURES
    for name, m in data["models"].items():
        assert sc.get_variant(name) is not None
        assert len(m["coef"]) == len(leaf.FEATURES) and m["games"] > 0
    # every variant's config names a shipped model
    for config in AGENT_CONFIGS.values():
        assert config.win_model in leaf.shipped_models()


def test_features_depend_only_on_what_the_player_knows() -> None:
    """Two dungeons that differ in the order of the unseen cards: equal features."""
    tr = _script()
    rng = random.Random(5)
    for seed in range(100):  # a deal that random play survives for six actions
        s = sc.new_game(seed=seed)
        info = InfoState.initial(s)
        for _ in range(6):
            a = rng.choice(sc.legal_actions(s))
            s2 = sc.apply(s, a)
            info, s = observe(info, a, s2), s2
            if s.is_over:
                break
        if not s.is_over:
            break
    assert not s.is_over
    unseen = list(s.dungeon)[: len(s.dungeon) - len(info.bottom)]
    rng.shuffle(unseen)
    other = s.with_dungeon((*unseen, *info.bottom))
    assert tr.features(info) == tr.features(InfoState.from_state(other, info.bottom))
    want = leaf.leaf_features(
        [*s.room, *s.dungeon], s.health, s.weapon_value, s.weapon_reach
    )
    assert tr.features(info) == want


def test_fit_recovers_a_known_logistic_model() -> None:
    tr = _script()
    rng = np.random.default_rng(0)
    x = np.c_[np.ones(20_000), rng.normal(size=(20_000, 2))]
    true = np.array([-0.5, 1.5, -2.0])
    y = (rng.random(20_000) < 1 / (1 + np.exp(-x @ true))).astype(float)
    coef = tr.fit_logistic(x, y, l2=0.0)
    assert np.allclose(coef, true, atol=0.1)
    assert tr.log_loss(x, y, coef) < tr.log_loss(x, y, np.zeros(3))


def test_play_then_fit_writes_a_model(tmp_path: Path) -> None:
    tr = _script()
    cache, out = tmp_path / "games.jsonl", tmp_path / "model.json"
    assert tr.main(["play", "--variant", "easy", "--seeds", "20000:20002", "--cache",
                    str(cache), "--no-model"]) == 0
    games = [json.loads(line) for line in cache.read_text().splitlines()]
    assert [g["seed"] for g in games] == [20000, 20001]
    # the cached outcome is the game the hand-leaf agent plays
    from scoundrel_solver.fair.api import play_with

    g = play_with(FairAgent(configs_with(win_model=None, win_bonus=0.0)), 20000, "easy")
    assert games[0]["score"] == g.score and games[0]["won"] == g.won
    assert tr.main(["play", "--variant", "easy", "--seeds", "20000:20002", "--cache",
                    str(cache), "--no-model"]) == 0  # resumed: nothing new
    assert len(cache.read_text().splitlines()) == 2
    if len({g["won"] for g in games}) < 2:  # one outcome only: fake the other label
        games[1]["won"] = not games[0]["won"]
        cache.write_text("".join(json.dumps(g) + "\n" for g in games))
    assert tr.main(["fit", "--variant", "easy", "--cache", str(cache), "--out", str(out),
                    "--l2", "0.1"]) == 0
    model = json.loads(out.read_text())["models"]["easy/strict"]
    assert len(model["coef"]) == len(leaf.FEATURES) and model["games"] == 2


def test_play_refuses_the_evaluation_seeds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tr = _script()
    assert tr.main(["play", "--seeds", "9990:20000", "--cache", str(tmp_path / "x")]) == 2
    assert "outside 0-9999" in capsys.readouterr().err


def test_play_resumes_after_a_game_cut_short_mid_write(tmp_path: Path) -> None:
    tr = _script()
    cache = tmp_path / "games.jsonl"
    args = ["play", "--variant", "easy", "--seeds", "20000:20002", "--cache", str(cache),
            "--no-model"]
    assert tr.main(args) == 0
    first, second = cache.read_text().splitlines()
    cache.write_text(first + "\n" + second[: len(second) // 2])  # stopped mid-write
    assert tr.main(args) == 0  # the cut game is played again, on a line of its own

    def game(line: str) -> dict[str, object]:
        row = json.loads(line)
        del row["cpu"]  # the time it took differs from run to run
        return dict(row)

    lines = cache.read_text().splitlines()
    assert lines[0] == first and len(lines) == 2
    assert game(lines[1]) == game(second)


def test_cached_raw_positions_give_the_features_of_the_info_state(tmp_path: Path) -> None:
    """``fit`` recomputes features from the raw positions ``play`` caches: the same
    features as the information state's at the time."""
    tr = _script()
    cache = tmp_path / "games.jsonl"
    assert tr.main(["play", "--variant", "easy", "--seeds", "20000:20001", "--cache",
                    str(cache), "--no-model"]) == 0
    (game,) = [json.loads(line) for line in cache.read_text().splitlines()]
    assert len(game["pos"]) == len(game["x"]) > 1
    for raw, x in zip(game["pos"], game["x"], strict=True):
        assert tr.parse_position(raw) == x


def test_a_model_file_with_fewer_features_plays_as_before(tmp_path: Path) -> None:
    """A model fitted on a prefix of FEATURES loads with zeros for the rest."""
    path = tmp_path / "model.json"
    names = list(leaf.FEATURES[:9])
    coef = [0.1 * (i + 1) for i in range(9)]
    path.write_text(json.dumps({"features": names, "models": {
        "classic/strict": {"coef": coef, "games": 1}}}))
    got = leaf.win_model_from(path, "hard/strict")  # falls back to classic/strict
    assert got == (*coef, *[0.0] * (len(leaf.FEATURES) - 9))
    path.write_text(json.dumps({"features": ["bias", "nonsense"], "models": {
        "classic/strict": {"coef": [0.0, 1.0], "games": 1}}}))
    with pytest.raises(ValueError, match="nonsense"):
        leaf.win_model_from(path, "classic/strict")


def test_fit_on_a_subset_of_the_features_zeroes_the_rest(tmp_path: Path) -> None:
    tr = _script()
    cache, out = tmp_path / "games.jsonl", tmp_path / "model.json"
    assert tr.main(["play", "--variant", "easy", "--seeds", "20000:20003", "--cache",
                    str(cache), "--no-model"]) == 0
    games = [json.loads(line) for line in cache.read_text().splitlines()]
    games[0]["won"], games[1]["won"] = True, False  # both labels present
    cache.write_text("".join(json.dumps(g) + "\n" for g in games))
    assert tr.main(["fit", "--variant", "easy", "--cache", str(cache), "--out", str(out),
                    "--l2", "0.1", "--features", "health,monsters"]) == 0
    data = json.loads(out.read_text())
    coef = dict(zip(data["features"], data["models"]["easy/strict"]["coef"], strict=True))
    assert coef["health"] != 0.0 and coef["monsters"] != 0.0
    assert all(c == 0.0 for name, c in coef.items() if name not in {"bias", "health", "monsters"})
    assert tr.main(["fit", "--variant", "easy", "--cache", str(cache), "--out", str(out),
                    "--features", "nonsense"]) == 2
