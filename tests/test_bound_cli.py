"""``scoundrel-bound`` as a user runs it: rows, resumption after Ctrl-C, the summary.

The command runs in its own process (``python -m scoundrel_solver.cli.bound``, what
the console script calls), in a new process group that gets SIGINT as a terminal
sends it on Ctrl-C.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import scoundrel_core as sc
import scoundrel_solver
from scoundrel_solver.bound.deal import deal_bound, opening_node
from scoundrel_solver.bound.rows import _t95, summarize_bound
from scoundrel_solver.bound.values import OneRoom

SRC = Path(scoundrel_solver.__file__).resolve().parents[1]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    return env


def _bound(*argv: str) -> list[str]:
    return [sys.executable, "-m", "scoundrel_solver.cli.bound", *argv]


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_bound(*argv), capture_output=True, text=True, env=_env(),
                          timeout=600, check=False)


def _rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_rows_hold_each_deals_term_and_the_summary_adds_them(tmp_path: Path) -> None:
    out = tmp_path / "b.jsonl"
    done = _run("--seeds", "0:2", "--steps", "1", "--value", "one-room", "--out", str(out),
                "--json")
    assert done.returncode == 0, done.stderr
    rows = _rows(out)
    assert [r["seed"] for r in rows] == [0, 1]
    s = sc.new_game(seed=1)
    mean = OneRoom().mean(opening_node(s))
    want = deal_bound(s, OneRoom(), 1, mean, max_nodes=2_000_000)
    assert rows[1]["term"] == pytest.approx(want.value, abs=1e-12)
    assert rows[1]["winnable"] is want.winnable and rows[1]["value"] == "one-room"
    report = json.loads(done.stdout)[0]
    terms = [float(r["term"]) for r in rows]  # type: ignore[arg-type]
    assert report["bound"] == pytest.approx(sum(terms) / 2)
    assert report["deals"] == 2 and report["bound_upper95"] > report["bound"]
    again = _run("--summary", str(out), "--json")
    assert json.loads(again.stdout) == json.loads(done.stdout)


def test_ctrl_c_keeps_whole_rows_and_the_same_command_resumes(tmp_path: Path) -> None:
    out = tmp_path / "b.jsonl"
    argv = ("--seeds", "0:400", "--variant", "hard", "--steps", "0", "--value", "zero",
            "--out", str(out), "--quiet")
    proc = subprocess.Popen(_bound(*argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=_env(), start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while not (out.exists() and out.read_bytes().count(b"\n") >= 3):
            assert proc.poll() is None, "the command ended before three rows were written"
            assert time.monotonic() < deadline, "no three rows after 300 s"
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        _, stderr = proc.communicate(timeout=120)
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130
    lines = stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "the same command resumes" in lines[0], lines
    first = _rows(out)  # every line whole
    n = len(first)
    assert [r["seed"] for r in first] == list(range(n))
    done = _run(*argv[:1], f"0:{n + 3}", *argv[2:])
    assert done.returncode == 0, done.stderr
    rows = _rows(out)
    assert [r["seed"] for r in rows] == list(range(n + 3))  # only the missing deals
    assert rows[:n] == first


@pytest.mark.parametrize(("argv", "says"), [
    (("--seeds", "0:2", "--steps", "9"), "--steps 9: at most 8"),
    (("--seeds", "0:2", "--variant", "easy"), "cycles of flees"),
    (("--seeds", "0:2", "--value", "two-room"), "invalid choice: 'two-room'"),
    (("--steps", "1",), "give --seeds"),
    (("--summary", "nothing.jsonl", "--seeds", "0:2"), "drop --seeds"),
    (("--seeds", "0:2", "--max-nodes", "0"), "not a positive integer"),
])
def test_bad_input_is_one_line(argv: tuple[str, ...], says: str) -> None:
    done = _run(*argv)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and says in done.stderr, done.stderr


def test_a_file_of_something_else_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "x.jsonl"
    bad.write_text('{"format": "scoundrel-eval/1"}\n')
    done = _run("--summary", str(bad))
    assert done.returncode == 2 and "not a scoundrel-bound/1 row" in done.stderr


def test_the_one_sided_t_quantile() -> None:
    # Student's t, 95% one-sided, from printed tables
    for df, want in ((10, 1.8125), (30, 1.6973), (200, 1.6525), (10**6, 1.6449)):
        assert _t95(df) == pytest.approx(want, abs=2e-3)


def test_a_seed_counts_once_per_bound() -> None:
    base = {"format": "scoundrel-bound/1", "variant": "hard", "weapon_rule": "strict",
            "steps": 1, "value": "zero", "max_nodes": 5, "solver_version": "a",
            "agent_version": "b", "best": 1.0, "opening": 0.0, "unproven": 0, "solves": 1,
            "chance_nodes": 0, "decisions": 0, "seconds": 1.0}
    rows = [{**base, "seed": 0, "term": 1.0, "winnable": True},
            {**base, "seed": 0, "term": 0.0, "winnable": False},
            {**base, "seed": 1, "term": 0.0, "winnable": False}]
    (s,) = summarize_bound(rows)
    assert s.deals == 2 and s.mean == 0.5 and s.perfect_share == 0.5


def test_rows_carry_the_versions_that_proved_them_and_another_versions_file_is_refused(
        tmp_path: Path) -> None:
    from scoundrel_solver.bound.version import bound_version
    from scoundrel_solver.exact.version import solver_version
    from scoundrel_solver.fair.version import agent_version

    out = tmp_path / "b.jsonl"
    argv = ("--seeds", "0:2", "--variant", "hard", "--steps", "0", "--value", "zero",
            "--out", str(out), "--quiet")
    assert _run(*argv).returncode == 0
    rows = _rows(out)
    assert {(r["bound_version"], r["solver_version"], r["agent_version"]) for r in rows} == {
        (bound_version(), solver_version(), agent_version())}
    assert bound_version().split("+")[1].startswith("bound.")
    again = _run("--seeds", "0:3", *argv[2:])  # the same versions: it resumes
    assert again.returncode == 0, again.stderr
    assert [r["seed"] for r in _rows(out)] == [0, 1, 2]
    for version in ("0.1.0+bound.000000000000", None):  # another bound, or one before stamps
        other = tmp_path / f"other-{version}.jsonl"
        row = {**rows[0], "steps": 3}  # even a row of other settings: the file is refused
        if version is None:
            del row["bound_version"]
        else:
            row["bound_version"] = version
        other.write_text(json.dumps(row) + "\n")
        before = other.read_bytes()
        done = _run("--seeds", "0:2", *argv[2:-3], "--out", str(other), "--quiet")
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1, done.stderr
        assert str(other) in done.stderr and "other code" in done.stderr
        assert ("older than the bound's version stamp" in done.stderr) == (version is None)
        assert other.read_bytes() == before  # nothing appended
        summary = _run("--summary", str(other), "--json")  # still readable
        assert summary.returncode == 0 and json.loads(summary.stdout)[0]["deals"] == 1


def test_the_published_rows_predate_the_stamp_and_still_add_up() -> None:
    """data/bound-*.jsonl were proven before rows named the bound's version: they read,
    and a summary keeps them apart from stamped rows of the same settings."""
    from scoundrel_solver.bound.rows import read_bound_rows

    data = Path(__file__).resolve().parents[1] / "data"
    old = read_bound_rows(data / "bound-hard-strict.jsonl")
    assert old and all("bound_version" not in r for r in old)
    stamped = [{**r, "bound_version": "x"} for r in old[:5]]
    groups = summarize_bound([*old, *stamped])
    assert sorted(s.deals for s in groups) == [5, len(old)]
