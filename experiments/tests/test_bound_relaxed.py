"""experiments/bound_relaxed.py: the relaxed V's positions, its fit, and its bound rows."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import scoundrel_core as sc
from lab import load_experiment
from scoundrel_core.info import InfoState
from scoundrel_solver.bound.deal import deal_bound, opening_node
from scoundrel_solver.bound.values import OneRoom, Zero
from scoundrel_solver.fair.leaf import FEATURES

relaxed = load_experiment("bound_relaxed")


def test_the_fit_recovers_a_known_logistic_model() -> None:
    rng = np.random.default_rng(0)
    x = np.c_[np.ones(4000), rng.normal(10, 3, 4000), rng.normal(-5, 2, 4000)]
    coef = np.array([0.5, -0.2, 0.7])
    y = (rng.random(4000) < 1 / (1 + np.exp(-x @ coef))).astype(float)
    got = relaxed._logistic(x, y, ridge=0.0)
    assert got == pytest.approx(coef, abs=0.15)
    assert relaxed._log_loss(x, y, got) <= relaxed._log_loss(x, y, coef) + 1e-9


def test_positions_resume_fit_and_the_bound_is_the_kernels_with_that_model(
        tmp_path: Path) -> None:
    positions = tmp_path / "p.jsonl"
    argv = ["positions", "--variant", "classic", "--out", str(positions)]
    assert relaxed.main([*argv, "--seeds", "1000000:1000030"]) == 0
    first = positions.read_text()
    assert relaxed.main([*argv, "--seeds", "1000000:1000030"]) == 0  # resumes: nothing new
    assert positions.read_text() == first
    rows = [json.loads(line) for line in first.splitlines()]
    assert {r["seed"] for r in rows} == set(range(1000000, 1000030))
    labelled = [r for r in rows if r["features"] is not None]
    assert labelled and all(len(r["features"]) == len(FEATURES) for r in labelled)
    assert all(1 <= r["step"] <= 3 for r in labelled)
    model = tmp_path / "m.json"
    assert relaxed.main(["fit", str(positions), "--out", str(model)]) == 0
    coef = json.loads(model.read_text())["models"]["classic/strict"]["coef"]
    assert len(coef) == len(FEATURES) and all(np.isfinite(coef))
    out = tmp_path / "b.jsonl"
    assert relaxed.main(["bound", "--model", str(model), "--variant", "classic",
                         "--seeds", "0:2", "--steps", "1", "--out", str(out)]) == 0
    bound_rows = [json.loads(line) for line in out.read_text().splitlines()]
    charges, name = relaxed.relaxed_value(model, sc.Variant("classic", "strict"), 1.0)
    assert isinstance(charges, OneRoom) and name.startswith("relaxed.")
    s = sc.new_game(seed=1)
    want = deal_bound(s, charges, 1, charges.mean(opening_node(s)), 2_000_000)
    assert [r["seed"] for r in bound_rows] == [0, 1]
    assert bound_rows[1]["term"] == pytest.approx(want.value, abs=1e-12)
    assert bound_rows[1]["value"] == name


def test_a_scaled_v_scales_the_values_and_means() -> None:
    s = sc.new_game(seed=3)
    node = opening_node(s)
    info = InfoState.initial(s)
    half = relaxed.Scaled(OneRoom(), 0.5)
    assert half.value(info) == pytest.approx(0.5 * OneRoom().value(info))
    assert half.mean(node) == pytest.approx(0.5 * OneRoom().mean(node))
    zero = relaxed.Scaled(Zero(), 3.0)
    assert zero.value(info) == 0.0 and zero.mean(node) == 0.0
