"""experiments/policy_phases.py: a switch arm chooses as its parts do, arms are named or
refused, and the run resumes and pairs its rows."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lab import EXPERIMENTS, load_experiment, walk
from scoundrel_solver.fair.agent import FairAgent
from scoundrel_solver.fair.value.policy import ValuePolicy

SCRIPT = EXPERIMENTS / "policy_phases.py"
phases = load_experiment("policy_phases")


@given(st.integers(0, 10**6), st.integers(6, 14), st.integers(0, 6), st.integers(0, 12))
@settings(max_examples=15, deadline=None)
def test_a_switch_chooses_as_its_parts(seed: int, n_cards: int, steps: int, above: int) -> None:
    s, info = walk(seed, n_cards, steps)
    assume(not s.is_over)
    early = len(info.unseen) > above
    by_policy, by_fair = ValuePolicy().choose(info), FairAgent().choose(info)
    assert phases.Switch(ValuePolicy(), FairAgent(), above).choose(info) == (
        by_policy if early else by_fair)
    assert phases.Switch(FairAgent(), ValuePolicy(), above).choose(info) == (
        by_fair if early else by_policy)


def test_arms_are_named_or_refused() -> None:
    assert isinstance(phases.agent_of("policy"), ValuePolicy)
    assert isinstance(phases.agent_of("fair"), FairAgent)
    switch = phases.agent_of("fair>12")
    assert isinstance(switch.early, FairAgent) and isinstance(switch.late, ValuePolicy)
    assert switch.above == 12
    for bad in ("pimc", "policy>", "policy>x", "fair>99", "fair<3", "policy>123"):
        with pytest.raises(ValueError, match="arm"):
            phases.agent_of(bad)


def test_paired_counts_both_ways() -> None:
    got = phases.paired({1: True, 2: False, 3: True, 4: False}, {1: True, 2: True, 3: False,
                                                                  5: True})
    assert (got["deals"], got["a_won"], got["b_won"], got["b_only"], got["a_only"]) == (
        3, 2, 2, 1, 1)
    assert got["diff"] == 0.0 and got["low"] < 0 < got["high"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=600)


def test_run_resumes_and_pairs(tmp_path: Path) -> None:
    out = tmp_path / "policy.jsonl"
    assert _run("--arm", "policy", "--seeds", "1900000:1900002", "--out", str(out)).returncode == 0
    assert _run("--arm", "policy", "--seeds", "1900000:1900003", "--out", str(out)).returncode == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["seed"] for r in rows] == [1900000, 1900001, 1900002]
    assert {r["arm"] for r in rows} == {"policy"} and all(r["decisions"] > 0 for r in rows)
    late = tmp_path / "late.jsonl"
    assert _run("--arm", "policy>40", "--seeds", "1900000:1900001", "--out",
                str(late)).returncode == 0
    table = _run("--table", str(out), str(late))
    assert table.returncode == 0 and "| policy>40 | 1 |" in table.stdout
    bad = _run("--arm", "greedy", "--seeds", "1:2", "--out", str(tmp_path / "x.jsonl"))
    assert bad.returncode == 2 and "arm 'greedy'" in bad.stderr and "Traceback" not in bad.stderr
    missing = _run("--table", str(tmp_path / "none.jsonl"))
    assert missing.returncode == 2 and "no such file" in missing.stderr


def _block(name: str) -> str:
    text = (EXPERIMENTS.parent / "docs" / "value.md").read_text()
    body = text.split(f"<!-- {name}: start -->\n", 1)[1].split(f"\n<!-- {name}: end -->", 1)[0]
    return body.split("\n\n", 1)[1]  # after the line naming the command


def test_docs_tables_are_the_rounds_files() -> None:
    """docs/value.md's tables of round twenty-five are what their commands print from the
    files committed in data/experiments/round-25."""
    files = sorted((EXPERIMENTS.parent / "data" / "experiments" / "round-25").glob(
        "phases-*.jsonl"))
    assert _block("policy-switch") == phases.table(files)
    sys.path.insert(0, str(EXPERIMENTS.parent / "scripts"))
    import policy_rank

    figures = policy_rank.figures_in(EXPERIMENTS.parent / "data" / "experiments" / "round-25"
                                     / "figures.jsonl")
    assert _block("policy-rank-25") == policy_rank.table(figures)
