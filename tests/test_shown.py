"""The shown chance: a calibration of the search's, never a change of move."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from scoundrel_core.info import InfoState, observe
from scoundrel_solver.errors import SolverError
from scoundrel_solver.fair.agent import FairAgent
from scoundrel_solver.fair.config import agent_config, configs_with
from scoundrel_solver.fair.value.shown import (
    CLIP,
    PHASES,
    TERMS,
    ShownChance,
    load_shown,
    shipped_path,
    shipped_shown,
)

SHIPPED = shipped_shown("classic/strict")


def _slow_chance(cal: ShownChance, p: float, learned: float, unseen: int, sampled: bool,
                 exact: bool) -> float:
    """The module docstring's formula, one row at a time in plain Python."""
    if unseen == 0 or exact:
        return p

    def logit(q: float) -> float:
        q = min(max(q, CLIP), 1 - CLIP)
        return math.log(q / (1 - q))

    z, lg, u, s, e = logit(p), logit(learned), unseen / 40, float(sampled), float(exact)
    named = {"bias": 1.0, "z": z, "learned": lg, "sampled_z": s * z, "exact_z": e * z,
             "exact": e, "unseen": u, "unseen_learned": u * lg, "sampled": s,
             "sampled_learned": s * lg}
    ph = "open" if unseen > 30 else "middle" if unseen > 12 else "end"
    c = cal.coefficients[PHASES.index(ph)]
    x = sum(float(ci) * named[t] for ci, t in zip(c, TERMS, strict=True))
    return 1 / (1 + math.exp(-x))


row = st.tuples(st.floats(0, 1), st.floats(0, 1), st.integers(0, 44), st.booleans(),
                st.booleans())


@given(st.lists(row, min_size=1, max_size=40))
@settings(max_examples=200, deadline=None)
def test_the_arrays_and_the_plain_formula_agree(rows: list[tuple]) -> None:
    p, lg, u, s, e = (np.array(c) for c in zip(*rows, strict=True))
    fast = SHIPPED.chances(p, lg, u, s.astype(float), e.astype(float))
    slow = [_slow_chance(SHIPPED, *r) for r in rows]
    np.testing.assert_allclose(fast, slow, rtol=1e-12, atol=1e-12)


@given(st.floats(0, 1), st.integers(1, 44), st.booleans(), st.booleans(),
       st.lists(st.floats(0, 1), min_size=2, max_size=6))
@settings(max_examples=200, deadline=None)
def test_actions_alike_keep_the_searchs_order(learned: float, unseen: int, sampled: bool,
                                              exact: bool, chances: list[float]) -> None:
    """Within a decision the map is increasing in the search's chance (a tie stays a tie)."""
    n = len(chances)
    p = np.array(chances)
    shown = SHIPPED.chances(p, np.full(n, learned), np.full(n, unseen), np.full(n, float(sampled)),
                            np.full(n, float(exact)))
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(shown[order]) >= -1e-15)
    assert np.all((shown >= 0) & (shown <= 1))


def _positions(seed: int, steps: int) -> InfoState:
    rng = random.Random(seed)
    s = sc.new_game(seed=seed)
    info = InfoState.initial(s)
    for _ in range(steps):
        acts = sc.legal_actions(s)
        a = rng.choice(acts)
        s2 = sc.apply(s, a)
        if s2.is_over:
            break
        info, s = observe(info, a, s2), s2
    return info


@given(st.integers(0, 10**6), st.integers(0, 40))
@settings(max_examples=12, deadline=None)
def test_the_calibration_never_changes_a_move(seed: int, steps: int) -> None:
    """The shipped agent and one that shows the search's chances (its slow twin) value and
    play every position alike, the shown chance apart."""
    info = _positions(seed, steps)
    shown = FairAgent().evaluate(info)
    plain = FairAgent(configs_with(shown=None)).evaluate(info)
    assert [v.action for v in shown] == [v.action for v in plain]
    for a, b in zip(shown, plain, strict=True):
        assert (a.value, a.expected_score, a.exact, a.samples) == (
            b.value, b.expected_score, b.exact, b.samples)
        assert a.searched_win_chance == b.win_chance and b.search_win_chance is None
        assert (a.search_win_chance is None) == (not info.unseen)
        if a.exact:
            assert a.win_chance == a.searched_win_chance
    assert FairAgent().choose(info) == FairAgent(configs_with(shown=None)).choose(info)


def test_the_opening_flee_depends_on_the_deal() -> None:
    flee = set()
    for seed in range(6):
        info = InfoState.initial(sc.new_game(seed=seed))
        rows = {v.action.is_flee: v for v in FairAgent().evaluate(info)}
        if True in rows:
            flee.add(round(rows[True].win_chance, 6))
    assert len(flee) > 1


def test_only_classic_strict_is_calibrated_and_bad_names_are_refused() -> None:
    assert agent_config("classic/strict").shown == "classic/strict"
    assert {agent_config(v).shown for v in ("classic/equal", "hard/strict", "easy/equal")} == {
        None}
    with pytest.raises(SolverError, match="shown 'hard/strict' must be None or a shipped"):
        configs_with(shown="hard/strict")
    with pytest.raises(SolverError, match="no shipped calibration"):
        shipped_path("easy/strict")


def test_a_calibration_file_round_trips_and_bad_ones_are_named(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    SHIPPED.save(path)
    again = load_shown(path)
    np.testing.assert_array_equal(again.coefficients, SHIPPED.coefficients)
    data = json.loads(shipped_path("classic/strict").read_text())
    for change, words in [
        ({"format": "x"}, "is not a scoundrel-shown-chance/1 file"),
        ({"terms": ["bias"]}, "has other terms"),
        ({"coefficients": {"open": [1.0] * len(TERMS)}}, "coefficients for the phases"),
        ({"coefficients": {p: [-1.0] * len(TERMS) for p in PHASES}}, "not increasing"),
        ({"coefficients": {p: ["a"] * len(TERMS) for p in PHASES}}, "malformed"),
        ({"value_model": {}}, "value model"),
    ]:
        path.write_text(json.dumps({**data, **change}))
        with pytest.raises(SolverError, match=words):
            load_shown(path)
    path.write_text("{")
    with pytest.raises(SolverError, match="is not JSON"):
        load_shown(path)


def test_a_tiny_calibration_refits(tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    from scoundrel_solver.fair.value.shown_fit import fit_shown

    rng = np.random.default_rng(0)
    n = 6000
    unseen = rng.integers(1, 41, n)
    chance = rng.uniform(0, 1, n)
    # outcomes drawn from a chance the search's underrates while many cards are unseen
    truth = np.where(unseen > 30, np.sqrt(chance), chance)
    arrays = {"chance": chance, "learned": rng.uniform(0.2, 0.9, n), "unseen": unseen,
              "sampled": (unseen <= 24).astype(float), "exact": np.zeros(n),
              "won": (rng.uniform(0, 1, n) < truth).astype(float)}
    cal = fit_shown(arrays, SHIPPED.model, fit={"what": "test"})
    shown = cal.chances(arrays["chance"], arrays["learned"], unseen, arrays["sampled"],
                        arrays["exact"])
    opening = unseen > 30
    raw_gap = abs(chance[opening].mean() - arrays["won"][opening].mean())
    assert raw_gap > 0.1
    assert abs(shown[opening].mean() - arrays["won"][opening].mean()) < 0.02
    assert cal.fit["rows_per_phase"]["open"] == int(opening.sum())


def test_the_calibration_refuses_evaluation_seeds(tmp_path: Path) -> None:
    from scoundrel_solver.fair.value.selfplay import record_games
    from scoundrel_solver.fair.value.shown_fit import decision_arrays

    out = tmp_path / "g.jsonl"
    record_games([9_999], sc.get_variant("hard/strict"), out)
    with pytest.raises(SolverError, match=r"seed 9999 is an evaluation seed.*never fit on those"):
        decision_arrays([out], SHIPPED.model)


def test_the_command_fits_and_measures(tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    pytest.importorskip("pyarrow")
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    # the first 400 games of the shipped training decisions: enough for every phase's map
    train = Path(__file__).resolve().parents[1] / "data" / "value-decisions-train.parquet"
    if not train.exists():
        pytest.skip("no data/value-decisions-train.parquet")
    table = pq.read_table(train)
    table = table.filter(pc.less(table["seed"], 1_000_400))
    parquet = tmp_path / "d.parquet"
    pq.write_table(table, parquet)
    model = shipped_path("classic/strict")
    model_file = tmp_path / "m.json"
    model_file.write_text(json.dumps(json.loads(model.read_text())["value_model"]))
    src = str(Path(__file__).resolve().parents[1] / "src")
    env = {"PYTHONPATH": src, "PATH": "/usr/bin:/bin"}
    out = tmp_path / "s.json"
    done = subprocess.run([sys.executable, "-m", "scoundrel_solver.cli.value", "shown",
                           str(parquet), "--model", str(model_file), "--out", str(out)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert load_shown(out).fit["games"] == 400
    done = subprocess.run([sys.executable, "-m", "scoundrel_solver.cli.value", "calibration",
                           str(parquet), "--shown", str(out)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "| shown, every decision |" in done.stdout
    assert "| search, every decision |" in done.stdout
    done = subprocess.run([sys.executable, "-m", "scoundrel_solver.cli.value", "calibration",
                           str(parquet), "--shown", str(tmp_path / "none.json")],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 2 and "--shown: no file" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
