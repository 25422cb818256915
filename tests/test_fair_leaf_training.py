"""scripts/train_fair_leaf.py and the shipped win model it wrote."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import scoundrel_core as sc
from conftest import load_script
from scoundrel_core.info import InfoState, observe
from scoundrel_solver.fair import leaf
from scoundrel_solver.fair.agent import FairAgent
from scoundrel_solver.fair.config import AGENT_CONFIGS, agent_config, configs_with


def _script() -> ModuleType:
    return load_script("train_fair_leaf")


def test_shipped_model_matches_the_features() -> None:
    data = json.loads(Path(leaf.__file__).with_name(leaf.MODEL_FILE).read_text())
    assert tuple(data["features"]) == leaf.FEATURES
    for name, m in data["models"].items():
        # named by the variant whose games it was fitted on, a suffix telling models apart
        assert sc.get_variant(name.split("-")[0]) is not None
        assert len(m["coef"]) == len(leaf.FEATURES) and m["games"] > 0
        if "net" in m:  # a net's weights: as many as its hidden units need
            assert len(m["net"]["weights"]) == leaf.net_size(m["net"]["hidden"])
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


def test_fit_leaves_the_excluded_seeds_out(tmp_path: Path) -> None:
    """``--exclude`` keeps an A/B test's seeds out of the fit (and out of its count)."""
    tr = _script()
    cache, out = tmp_path / "games.jsonl", tmp_path / "model.json"
    assert tr.main(["play", "--variant", "easy", "--seeds", "20000:20004", "--cache",
                    str(cache), "--no-model"]) == 0
    games = [json.loads(line) for line in cache.read_text().splitlines()]
    for g, won in zip(games, (True, False, True, False), strict=True):
        g["won"] = won  # both labels among the games kept
    cache.write_text("".join(json.dumps(g) + "\n" for g in games))
    assert tr.main(["fit", "--variant", "easy", "--cache", str(cache), "--out", str(out),
                    "--l2", "0.1", "--exclude", "20002:20004"]) == 0
    model = json.loads(out.read_text())["models"]["easy/strict"]
    assert model["games"] == 2 and model["seeds"] == "20000-20001"
    assert model["positions"] == sum(len(g["x"]) for g in games[:2])
    assert tr.main(["fit", "--variant", "easy", "--cache", str(cache), "--out", str(out),
                    "--exclude", "20000:20004"]) == 2  # nothing left to fit


def test_the_hard_model_is_an_option_the_default_agent_does_not_play() -> None:
    """The win model fitted on hard/strict games ships by name; a config that names it
    plays its coefficients, and the default hard agent still plays the classic model."""
    models = leaf.shipped_models()
    hard = models["hard/strict"]
    assert len(hard) == len(leaf.FEATURES) and hard != models["classic/strict"]
    config = agent_config("hard/strict")
    par = leaf.config_par(replace(config, win_model="hard/strict"))
    assert par[leaf.LEAF_MODEL:leaf.LEAF_NET].tolist() == list(hard)
    assert config.win_model == "classic/strict"
    assert leaf.config_par(config)[leaf.LEAF_MODEL:leaf.LEAF_NET].tolist() == list(
        models["classic/strict"])


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


def _value_game(seed: int, won: bool, rng: random.Random) -> dict[str, object]:
    """A recorded game as ``scoundrel-value data`` writes one, with the fields the net's
    fit reads: rooms dealt from a shuffled deck, random health and weapon."""
    deck = list(sc.FULL_DECK)
    rng.shuffle(deck)
    decisions = []
    for k in range(0, 40, 4):
        room, bottom, unseen = deck[k:k + 4], deck[k + 4:k + 6], deck[k + 6:]
        d: dict[str, object] = {
            "health": rng.randint(1, 20), "weapon": rng.choice([0, 3, 7]),
            "last_kill": rng.choice([0, 5, 12]), "resolved": 0,
            "room": [str(c) for c in room], "bottom": [str(c) for c in bottom]}
        for kind, lo, hi in (("m", 2, 14), ("w", 2, 10), ("p", 2, 10)):
            for v in range(lo, hi + 1):
                d[f"unseen_{kind}{v}"] = sum(
                    1 for c in unseen if c.value == v and c.kind.name[0].lower() == kind)
        decisions.append(d)
        decisions.append({**d, "resolved": 1})  # not a room's first decision: skipped
    return {"format": _script().VALUE_GAMES, "seed": seed, "variant": "classic/strict", "won": won,
            "score": 1 if won else -1, "decisions": decisions}


def test_net_fit_writes_a_net_the_leaf_reads_as_it_was_fitted(tmp_path: Path) -> None:
    """The net's fit on a tiny set of recorded games: the model file's net, read by the
    leaf (``leaf_estimate``, the kernel's twin), gives the chances the fit computed."""
    tr = _script()
    rng = random.Random(3)
    games = tmp_path / "games.jsonl"
    games.write_text("".join(json.dumps(_value_game(20_000 + i, i % 3 != 0, rng)) + "\n"
                             for i in range(30)))
    out = tmp_path / "model.json"
    assert tr.main(["net", "--games", str(games), "--hidden", "3", "--out", str(out),
                    "--exclude", "20025:20030"]) == 0
    data = json.loads(out.read_text())
    entry = data["models"]["classic/strict-net"]
    assert entry["games"] == 25 and entry["net"]["hidden"] == 3
    model = leaf.win_model_from(out, "classic/strict", "classic/strict-net")
    par = leaf.weights_array(None, model)
    pos = tr.value_game_positions([games], "classic/strict")
    assert len(pos["seed"]) == 30 * 10  # a position per room's first decision
    _, inputs = tr.position_features(pos, "strict")
    want = tr.net_win_chances(model[len(leaf.FEATURES):], pos["counts"], inputs)
    for k in range(0, 300, 17):
        w, lk = int(pos["weapon"][k]), int(pos["last_kill"][k])
        reach = sc.get_variant("classic/strict").weapon_reach(w, lk)
        cards = tr._pool_cards(pos["counts"][k])
        _, got = leaf.leaf_estimate(cards, int(pos["health"][k]), w, reach, par)
        assert abs(got - want[k]) < 1e-9
    # the logistic model beside it plays as a plain model
    assert len(leaf.win_model_from(out, "x", "classic/strict-net-logistic")) == len(
        leaf.FEATURES)


def test_net_fit_refuses_evaluation_seeds(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    tr = _script()
    games = tmp_path / "games.jsonl"
    games.write_text(json.dumps(_value_game(42, True, random.Random(1))) + "\n")
    assert tr.main(["net", "--games", str(games), "--out", str(tmp_path / "m.json")]) == 2
    assert "evaluation seed" in capsys.readouterr().err


def _target_game(seed: int, won: bool, chance: float, rng: random.Random) -> dict[str, object]:
    """A game as ``experiments/leaf_targets.py`` records one: rooms from a shuffled deck,
    random health and weapon, every room given the chance ``chance``."""
    deck = [str(c) for c in sc.FULL_DECK]
    rng.shuffle(deck)
    positions = []
    for k, kind in enumerate(("agent", "branch") * 4):
        pool = deck[4 * k:]
        positions.append({"kind": kind, "unseen": len(pool) - 4, "pool": " ".join(sorted(pool)),
                          "health": rng.randint(1, 20), "weapon": rng.choice([0, 3, 7]),
                          "last_kill": 0, "reach": 14, "win": chance, "searched": chance})
    return {"format": _script().LEAF_TARGETS, "seed": seed, "variant": "classic/strict",
            "won": won, "score": 1 if won else -1, "positions": positions}


def test_targets_fit_learns_a_chance_given_as_the_label(tmp_path: Path) -> None:
    """Fitted to a chance (not an outcome), the net's chances come out near it, and the
    model file's net, read by the leaf, gives the chances the fit computed."""
    tr = _script()
    rng = random.Random(5)
    path = tmp_path / "targets.jsonl"
    path.write_text("".join(json.dumps(_target_game(30_000 + i, i % 2 == 0, 0.3, rng)) + "\n"
                            for i in range(40)))
    out = tmp_path / "model.json"
    assert tr.main(["targets", "--positions", str(path), "--hidden", "2", "--out", str(out),
                    "--name", "soft"]) == 0
    entry = json.loads(out.read_text())["models"]["soft"]
    assert entry["target"] == "win" and entry["positions"] == 40 * 8
    model = leaf.win_model_from(out, "classic/strict", "soft")
    pos = tr.target_positions([path], "classic/strict")
    _, inputs = tr.position_features(pos, "strict")
    chances = tr.net_win_chances(model[len(leaf.FEATURES):], pos["counts"], inputs)
    assert abs(float(chances.mean()) - 0.3) < 0.05  # the outcomes (half won) are not the label
    par = leaf.weights_array(None, model)
    for k in range(0, len(chances), 23):
        cards = tr._pool_cards(pos["counts"][k])
        _, got = leaf.leaf_estimate(cards, int(pos["health"][k]), int(pos["weapon"][k]), 14
                                    if pos["weapon"][k] else 0, par)
        assert abs(got - chances[k]) < 1e-9
    # fitted to the outcomes, only the agent's rooms count
    assert tr.main(["targets", "--positions", str(path), "--hidden", "2", "--out", str(out),
                    "--name", "won", "--target", "won"]) == 0
    assert json.loads(out.read_text())["models"]["won"]["positions"] == 40 * 4


def test_targets_fit_refuses_evaluation_seeds(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    tr = _script()
    path = tmp_path / "targets.jsonl"
    path.write_text(json.dumps(_target_game(7, True, 0.5, random.Random(1))) + "\n")
    assert tr.main(["targets", "--positions", str(path), "--out", str(tmp_path / "m.json")]) == 2
    assert "evaluation seed" in capsys.readouterr().err
