"""Results files at their root (scoundrel_solver.runs.jsonl): a last line that parses is a row,
writes checked whole on a full disk, one lock for every writer, only regular files, bounded
lines; and the one row validator every reader shares."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import scoundrel_core as sc
from conftest import fill_disk, free_disk
from scoundrel_solver.cli.solve import main
from scoundrel_solver.runs.batch import Batch, read_results
from scoundrel_solver.runs.jsonl import (
    MAX_LINE_BYTES,
    LineAppender,
    ResultsFileError,
    drop_cut_line,
    read_json_lines,
)
from scoundrel_solver.runs.seeds import SeedRange

HARD = sc.get_variant("hard")
SRC = str(Path(__file__).resolve().parents[1] / "src")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_last_row_without_its_newline_counts_and_is_completed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 24, data loss 1: printf '%s' "$(cat r.jsonl)" drops the final newline."""
    out = tmp_path / "r.jsonl"
    assert run(capsys, "--seeds", "0:5", "--variant", "hard", "--out", str(out))[0] == 0
    out.write_text(out.read_text().rstrip("\n"))
    code, text, _ = run(capsys, "--seeds", "0:5", "--variant", "hard", "--out", str(out),
                        "--json")
    assert code == 0 and json.loads(text)["deals"] == 5
    lines = out.read_text().splitlines(keepends=True)
    assert [json.loads(x)["seed"] for x in lines] == [0, 1, 2, 3, 4]  # seed 4 kept, whole
    assert all(x.endswith("\n") for x in lines)


def test_appending_after_a_cut_short_line_starts_a_new_line(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    out.write_text('{"a": 1}\n{"a": 2')  # a writer killed mid-row
    with LineAppender(out) as sink:
        sink.append('{"a": 3}')
    assert out.read_text() == '{"a": 1}\n{"a": 3}\n'


@pytest.mark.parametrize("target", ["/dev/null", "/dev/full", "fifo", "folder"])
def test_only_regular_files_are_results_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, target: str
) -> None:
    """/dev/null swallowed every row, /dev/full read one endless line (23 GB), a FIFO hung."""
    path = Path(target) if target.startswith("/") else tmp_path / target
    if target == "fifo":
        os.mkfifo(path)
    elif target == "folder":
        path.mkdir()
    code, out, err = run(capsys, "--seeds", "0:2", "--variant", "hard", "--out", str(path))
    # an output that cannot be written: exit 1, as everywhere (issue 39, item 17)
    assert code == 1 and out == "" and err.count("\n") == 1
    assert str(path) in err and ("not a regular file" in err or "is a folder" in err), err
    from scoundrel_solver.census.errors import CensusError
    from scoundrel_solver.census.importer import import_file
    from scoundrel_solver.census.store import Store

    with Store(tmp_path / "c.sqlite") as store, pytest.raises(CensusError, match=str(path)):
        import_file(store, path)
    with pytest.raises(sc.RecordError, match=r"not a regular file|is a folder|cannot read"):
        sc.GameRecord.load(path)


def test_a_line_longer_than_the_cap_is_refused_not_held(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    out.write_bytes(b'{"x": "' + b"y" * (MAX_LINE_BYTES + 10) + b'"}\n')
    with pytest.raises(ResultsFileError, match=":1: a line longer than"):
        list(read_json_lines(out))


def rows_of(path: Path) -> list[dict[str, Any]]:
    text = path.read_text()
    assert text == "" or text.endswith("\n")  # never a partial line left behind
    return [json.loads(x) for x in text.splitlines()]


def test_a_full_disk_cuts_back_to_the_last_row_and_the_run_resumes(
    capsys: pytest.CaptureFixture[str], small_disk: Path
) -> None:
    out = small_disk / "r.jsonl"
    assert run(capsys, "--seeds", "0:2", "--variant", "hard", "--out", str(out))[0] == 0
    row_size = len(out.read_bytes()) // 2
    fill_disk(small_disk, leave=row_size * 3 + row_size // 2)  # room for about 3.5 rows
    code, stdout, err = run(capsys, "--seeds", "0:40", "--variant", "hard", "--out", str(out))
    assert code == 1 and stdout == ""
    saved = len(rows_of(out)) - 2
    assert err == (f"scoundrel-solve: error: disk full; {saved} results saved in {out}; "
                   "the same command resumes once there is room\n")
    assert 0 <= saved < 38
    free_disk(small_disk)
    code, stdout, err = run(capsys, "--seeds", "0:40", "--variant", "hard", "--out", str(out))
    assert code == 0 and err == ""
    assert sorted(r["seed"] for r in rows_of(out)) == list(range(40))  # each once


def test_a_record_export_and_stdout_on_a_full_device_are_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": SRC}
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "scoundrel_solver.cli.solve", "--seeds",
                               "0:3", "--variant", "hard", "--json"], stdout=full,
                              stderr=subprocess.PIPE, text=True, env=env, timeout=300)
    assert done.returncode == 1
    assert done.stderr == "scoundrel-solve: error: disk full writing standard output\n"


def _slow_writer(path: Path, rows: int, hold: float) -> list[str]:
    """A writer that keeps the lock over a slow, two-part write (as a large row takes)."""
    return [sys.executable, "-c", f"""
import fcntl, os, time
fd = os.open({str(path)!r}, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
for i in range({rows}):
    row = ('{{"seed": %d, "pad": "' % i + 'x' * 5000 + '"}}\\n').encode()
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.write(fd, row[:2500])
    time.sleep({hold})
    os.write(fd, row[2500:])
    fcntl.flock(fd, fcntl.LOCK_UN)
    time.sleep(0.001)
"""]


def test_a_run_starting_up_never_cuts_another_writers_row(tmp_path: Path) -> None:
    """Two writers as two processes: the starter mends the file's end only under the lock,
    so a row half written by the other (lock held) is never taken for one cut short."""
    out = tmp_path / "shared.jsonl"
    writer = subprocess.Popen(_slow_writer(out, 40, 0.01), env={**os.environ})
    starters = 0
    try:
        while writer.poll() is None:
            drop_cut_line(out)  # what every run does when it starts
            starters += 1
    finally:
        writer.wait(timeout=60)
    assert writer.returncode == 0 and starters > 10
    assert [r["seed"] for r in rows_of(out)] == list(range(40))


def test_two_solver_runs_on_one_file_keep_every_row(tmp_path: Path) -> None:
    out = tmp_path / "shared.jsonl"
    env = {**os.environ, "PYTHONPATH": SRC}
    cmd = [sys.executable, "-m", "scoundrel_solver.cli.solve", "--variant", "hard", "--quiet",
           "--out", str(out)]
    procs = [subprocess.Popen([*cmd, "--seeds", seeds], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE) for seeds in ("0:150", "50:200")]
    errs = [p.communicate(timeout=600)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errs
    seeds = [r["seed"] for r in rows_of(out)]
    assert set(seeds) == set(range(200))


BASE = {"seed": 4, "variant": "hard", "weapon_rule": "strict", "best_score": 14,
        "upper_bound": 14, "proven": True, "winnable": True, "stopped_by": None,
        "nodes": 10, "seconds": 0.1, "max_nodes": None, "max_seconds": None}


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"best_score": 1_000_000}, "best_score 1000000 is outside -188..30"),
        ({"winnable": False}, "winnable false, but a proven score of 14 wins"),
        ({"proven": False, "upper_bound": 12, "stopped_by": "max_nodes"},
         "upper_bound 12 is below best_score 14"),
        ({"seconds": float("nan")}, "seconds nan is not a non-negative finite number"),
        ({"nodes": 2**64}, "nodes 18446744073709551616 is outside"),
        ({"seed": 2**64}, "seed 18446744073709551616 is outside"),
        ({"variant": "hard/equal"}, "variant 'hard/equal' is not one of"),
        ({"stopped_by": "max_nodes"}, "stopped_by 'max_nodes' on a row that is proven"),
        ({"proven": False, "upper_bound": 20, "stopped_by": None},
         "stopped_by null on a row that is not proven"),
    ],
)
def test_every_reader_refuses_what_the_rules_cannot_produce(
    tmp_path: Path, change: dict[str, Any], needle: str
) -> None:
    from scoundrel_solver.census.errors import CensusError
    from scoundrel_solver.census.importer import import_file
    from scoundrel_solver.census.store import Store

    path = tmp_path / "r.jsonl"
    good = json.dumps(BASE)
    bad = json.dumps({**BASE, "seed": 5, **change})
    path.write_text(f"{good}\n{bad}\n")
    with pytest.raises(ResultsFileError, match=f"{path}:2: " + _re(needle)):
        list(read_results(path))
    with pytest.raises(ResultsFileError, match=_re(needle)):
        Batch(SeedRange(0, 10), HARD, path)
    with Store(tmp_path / "c.sqlite") as store, pytest.raises(CensusError, match=_re(needle)):
        import_file(store, path)


def _re(text: str) -> str:
    import re

    return re.escape(text)


def test_two_proven_rows_that_disagree_are_reported_by_both_readers(tmp_path: Path) -> None:
    from scoundrel_solver.census.errors import CensusError
    from scoundrel_solver.census.importer import import_file
    from scoundrel_solver.census.store import Store

    path = tmp_path / "r.jsonl"
    other = {**BASE, "best_score": 12, "upper_bound": 12}
    path.write_text(f"{json.dumps(BASE)}\n{json.dumps(other)}\n")
    with pytest.raises(ResultsFileError, match=f"{path}:2: seed 4 .* proven to score 12 here "
                       f"but 14 at {path}:1"):
        Batch(SeedRange(0, 10), HARD, path)
    with Store(tmp_path / "c.sqlite") as store, pytest.raises(CensusError, match="seed 4"):
        import_file(store, path)
