"""The policy-gradient example runs end to end and writes its learning curve."""

from __future__ import annotations

import csv
import importlib.util
import sys
from pathlib import Path

import numpy as np

from scoundrel_core.env import ScoundrelVectorEnv
from scoundrel_solver.provenance import read_provenance

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "train_policy_gradient.py"


def test_policy_gradient_example_writes_a_learning_curve(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("train_policy_gradient", EXAMPLE)
    assert spec is not None and spec.loader is not None
    ex = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = ex
    spec.loader.exec_module(ex)
    out = tmp_path / "curve.csv"
    # A fixed amount of work, not a time budget: a cold numba compile can take longer
    # than any short budget on a busy machine.
    argv = ["--minutes", "30", "--max-steps", "1000", "--envs", "32", "--log-every", "500",
            "--csv", str(out), "--eval-seeds", "0:8"]
    assert ex.main(argv) == 0
    assert read_provenance(out)["command"].startswith("python ")
    rows = list(csv.DictReader(line for line in out.open() if not line.startswith("#")))
    assert rows and int(rows[-1]["env_steps"]) >= 500
    assert all(-188 <= float(r["mean_score"]) <= 30 for r in rows)
    # the policy only ever gives probability to legal actions
    envs = ScoundrelVectorEnv(16)
    obs, info = envs.reset(seed=0)
    probs = ex.policy(np.ones(len(ex.FEATURES)), ex.features(obs), info["action_mask"])
    assert np.allclose(probs.sum(axis=1), 1) and not probs[~info["action_mask"]].any()
