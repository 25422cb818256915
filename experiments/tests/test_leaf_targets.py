"""experiments/leaf_targets.py: the agent's own valuations of rooms on and off its line."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

import scoundrel_core as sc
from lab import load_experiment
from scoundrel_core.info import InfoState
from scoundrel_solver.fair import FairAgent, play_fair
from scoundrel_solver.fair.agent import choice

SEEDS = (1_000_000, 1_000_001)


def test_the_game_is_the_agents_and_the_rooms_are_valued_as_it_values_them(
        tmp_path: Path) -> None:
    lt = load_experiment("leaf_targets")
    out = tmp_path / "t.jsonl"
    argv = ["--variant", "hard", "--out", str(out), "--min-unseen", "30"]
    assert lt.main([*argv, "--seeds", f"{SEEDS[0]}:{SEEDS[0] + 1}"]) == 0
    assert lt.main([*argv, "--seeds", f"{SEEDS[0]}:{SEEDS[1] + 1}"]) == 0  # resumes
    games = [json.loads(line) for line in out.read_text().splitlines()]
    assert [g["seed"] for g in games] == list(SEEDS)
    for g in games:
        game = play_fair(g["seed"], "hard", "strict")
        assert (g["score"], g["won"]) == (game.score, game.won)
        rooms = [p for p in g["positions"] if p["kind"] == "agent"]
        assert rooms and all(p["unseen"] >= 30 for p in rooms)
        first = rooms[0]
        info = InfoState.initial(sc.new_game(seed=g["seed"], variant="hard/strict"))
        best = choice(info, FairAgent().evaluate(info))
        assert best is not None
        assert first["unseen"] == 40 and len(first["pool"].split()) == 44
        assert first["win"] == round(best.win_chance, 5)
        assert first["searched"] == round(best.searched_win_chance, 5)
        for p in g["positions"]:  # a pool between rooms holds every card not yet resolved
            assert 0 <= p["win"] <= 1 and 0 <= p["searched"] <= 1
            assert len(p["pool"].split()) >= p["unseen"]


def test_the_deviations_rooms_are_what_a_player_could_see(tmp_path: Path) -> None:
    """A deviation's room is a legal position of the same deal's cards: its pool is the
    pool of the room it deviated from less the cards resolved on the way."""
    lt = load_experiment("leaf_targets")
    out = tmp_path / "t.jsonl"
    assert lt.main(["--variant", "classic", "--out", str(out), "--seeds",
                    f"{SEEDS[0]}:{SEEDS[0] + 1}", "--min-unseen", "34",
                    "--branch-unseen", "34"]) == 0
    (g,) = [json.loads(line) for line in out.read_text().splitlines()]
    pos = g["positions"]
    assert any(p["kind"] == "branch" for p in pos)
    for before, after in itertools.pairwise(pos):
        if after["kind"] == "branch":
            assert set(after["pool"].split()) < set(before["pool"].split())
            assert after["unseen"] < before["unseen"]


def test_the_evaluation_seeds_are_refused(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    lt = load_experiment("leaf_targets")
    with pytest.raises(SystemExit) as e:
        lt.main(["--seeds", "9990:10010", "--out", str(tmp_path / "t.jsonl")])
    assert e.value.code == 2
    assert "evaluation seeds" in capsys.readouterr().err
