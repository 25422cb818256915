"""scoundrel-eval --out: every finished game kept, whatever stops the run; resumable."""

from __future__ import annotations

import json
import os
import re
import signal
from pathlib import Path

import pytest

from conftest import fill_disk, free_disk
from scoundrel_solver.cli.eval import main
from scoundrel_solver.fair.version import agent_version
from test_cli_signals import ALL_SEEDS, _command, _pty_run, _workers


def rows(path: Path) -> list[dict[str, object]]:
    text = path.read_text()
    assert text == "" or text.endswith("\n")
    return [json.loads(x) for x in text.splitlines()]


def test_out_resumes_and_the_report_counts_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "e.jsonl"
    assert main(["--agent", "greedy", "--seeds", "0:6", "--out", str(out), "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(["--agent", "greedy", "--seeds", "0:10", "--out", str(out), "--json"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert [r["seed"] for r in rows(out)] == list(range(10))  # 0-5 not played again
    assert second["games"] == 10 and first["games"] == 6
    fresh = tmp_path / "f.jsonl"
    assert main(["--agent", "greedy", "--seeds", "0:10", "--out", str(fresh), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["mean_score"] == second["mean_score"]  # resumed = played in one go
    # another agent's rows in the same file are kept and not counted
    assert main(["--agent", "random", "--seeds", "0:3", "--out", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 3
    assert len(rows(out)) == 13


def test_a_bad_row_is_named_with_its_line(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "e.jsonl"
    assert main(["--agent", "greedy", "--seeds", "0:2", "--out", str(out), "--quiet"]) == 0
    capsys.readouterr()
    row = rows(out)[0]
    out.write_text(json.dumps({**row, "score": 14}) + "\n")  # won false with a winning score
    assert main(["--agent", "greedy", "--seeds", "0:2", "--out", str(out), "--quiet"]) == 2
    assert f"{out}:1: won False with a score of 14" in capsys.readouterr().err


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP],
                         ids=["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_stopped_evaluation_keeps_every_finished_game(tmp_path: Path, sig: int) -> None:
    out = tmp_path / "e.jsonl"
    code, terminal = _pty_run(
        _command("eval", "--agent", "random", "--seeds", ALL_SEEDS, "--jobs", "2",
                 "--out", str(out)),
        re.compile(r"\b(?:[1-9]\d*)/" + str(2**64)), sig=sig,
    )
    assert code == 128 + sig and "Traceback" not in terminal, terminal[-2000:]
    last = terminal.replace("\r", "\n").strip().splitlines()[-1]
    saved = int(re.search(r"(\d+) new games saved", last).group(1))  # type: ignore[union-attr]
    assert len(rows(out)) == saved >= 1


def test_a_killed_worker_keeps_what_was_finished(tmp_path: Path) -> None:
    out = tmp_path / "e.jsonl"

    def kill_one_worker(proc: object) -> None:
        os.kill(_workers(proc.pid)[0], signal.SIGKILL)  # type: ignore[attr-defined]

    code, terminal = _pty_run(
        _command("eval", "--agent", "random", "--seeds", ALL_SEEDS, "--jobs", "2",
                 "--out", str(out)),
        re.compile(r"\b(?:[1-9]\d*)/" + str(2**64)), act=kill_one_worker, timeout=120,
    )
    assert code == 1, terminal[-2000:]
    last = terminal.replace("\r", "\n").strip().splitlines()[-1]
    saved = int(re.search(r"(\d+) new games saved", last).group(1))  # type: ignore[union-attr]
    assert len(rows(out)) == saved >= 1


def test_a_full_disk_stops_with_one_line_and_the_run_resumes(
    small_disk: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = small_disk / "e.jsonl"
    fill_disk(small_disk, leave=4096)
    assert main(["--agent", "greedy", "--seeds", "0:200", "--out", str(out), "--quiet"]) == 1
    err = capsys.readouterr().err
    saved = len(rows(out))
    assert err == (f"scoundrel-eval: error: disk full; {saved} new games saved in {out}; "
                   "the same command resumes once there is room\n")
    free_disk(small_disk)
    assert main(["--agent", "greedy", "--seeds", "0:200", "--out", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 200
    assert sorted(r["seed"] for r in rows(out)) == list(range(200))  # type: ignore[type-var]


def test_rows_of_another_revision_are_kept_and_played_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g.jsonl"
    assert main(["--agent", "greedy", "--seeds", "0:3", "--out", str(out), "--quiet"]) == 0
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert {r["agent_version"] for r in rows} == {agent_version()}
    # the first row as an older revision wrote it, the second as another revision
    old = {k: v for k, v in rows[0].items() if k != "agent_version"}
    other = {**rows[1], "agent_version": "0.0.0+fair.000000000000"}
    out.write_text("".join(json.dumps(r) + "\n" for r in (old, other, rows[2])))
    capsys.readouterr()
    assert main(["--agent", "greedy", "--seeds", "0:3", "--out", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 3
    again = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(again) == 5 and [r["seed"] for r in again[3:]] == [0, 1]
