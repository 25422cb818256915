"""The fair agent and the baselines played through the env give scoundrel-eval's results."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from scoundrel_solver.cli import eval as cli_eval
from scoundrel_solver.fair.api import make_agent, play_with

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "evaluate_agents_env.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("evaluate_agents_env", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _eval_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert cli_eval.main([*argv, "--json", "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("agent", "variant", "weapon_rule", "seeds"),
    [
        ("greedy", "hard", "strict", "0:20"),
        ("random", "classic", "equal", "0:20"),
        ("greedy", "easy", "strict", "0:10"),
        ("fair", "hard", "strict", "0:10"),
    ],
)
def test_env_evaluation_equals_scoundrel_eval(
    capsys: pytest.CaptureFixture[str], agent: str, variant: str, weapon_rule: str, seeds: str
) -> None:
    ex = _example()
    a, b = (int(x) for x in seeds.split(":"))
    # The fair agent searches at depth 0 (its leaf evaluation) to keep the test short.
    opts = {"max_depth": 0} if agent == "fair" else {}
    got = ex.evaluate(agent, range(a, b), variant, weapon_rule, **opts)
    want = _eval_json(
        capsys, "--agent", agent, "--seeds", seeds, "--variant", variant,
        "--weapon-rule", weapon_rule, *(["--depth", "0"] if opts else []),
    )
    assert got["games"] == want["games"] and got["wins"] == want["wins"]
    assert got["mean_score"] == pytest.approx(want["mean_score"])


def test_env_games_equal_play_with_seed_by_seed() -> None:
    import gymnasium

    ex = _example()
    env = gymnasium.make("scoundrel_core.env:Scoundrel-v0", variant="hard")
    for seed in range(10):
        game = ex.play_in_env(make_agent("greedy"), env, seed)
        ref = play_with(make_agent("greedy"), seed, "hard")
        assert (game.score, game.won, game.steps) == (ref.score, ref.won, len(ref.actions))
