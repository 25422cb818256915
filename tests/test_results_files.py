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
from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from conftest import fill_disk, free_disk
from scoundrel_solver import solve
from scoundrel_solver.cli.solve import main
from scoundrel_solver.runs.batch import Batch, read_results
from scoundrel_solver.runs.jsonl import (
    MAX_LINE_BYTES,
    LineAppender,
    ResultsFileError,
    append_missing,
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


# Seed 0 of hard scores 14 at best; this is its proven row, line and all.
BASE = {**solve(0, variant="hard").to_json(), "max_nodes": None, "max_seconds": None}
assert BASE["best_score"] == 14


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
    # A real line of seed 0 that scores less than 14, in a row that calls it proven.
    short = solve(0, variant="hard", max_nodes=1).to_json()
    assert short["best_score"] < 14
    other = {**short, "upper_bound": short["best_score"], "proven": True, "stopped_by": None,
             "winnable": short["best_score"] > 0}
    path.write_text(f"{json.dumps(BASE)}\n{json.dumps(other)}\n")
    with pytest.raises(ResultsFileError, match=f"{path}:2: seed 0 .* proven to score "
                       f"{other['best_score']} here but 14 at {path}:1"):
        Batch(SeedRange(0, 10), HARD, path)
    with Store(tmp_path / "c.sqlite") as store, pytest.raises(CensusError, match="seed 0"):
        import_file(store, path)


def _row_of_seed_4() -> dict[str, Any]:
    return {**solve(4, variant="hard").to_json(), "max_nodes": None, "max_seconds": None}


def _swapped(deck: list[str]) -> list[str]:
    return [deck[1], deck[0], *deck[2:]]


@pytest.mark.parametrize(
    ("forge", "needle"),
    [
        # a score the deal cannot give (the line reaches 14)
        (lambda r: {**r, "best_score": 20, "upper_bound": 20}, "best_score 20, but the line "
         "reaches 14 on seed 0"),
        # a line the rules refuse (hard never flees)
        (lambda r: {**r, "line": ["flee", *r["line"][1:]]}, "the line is not a game of seed "
         "0 (hard/strict): step 1:"),
        # a line that stops before the game ends
        (lambda r: {**r, "line": r["line"][:10]}, "the line stops after 10 steps"),
        # a deck that is not the seed's deal
        (lambda r: {**r, "deck": _swapped(r["deck"])}, "deck is not the deal of seed 0"),
        # seed 4's row passed off as seed 0's, its deck and score with it
        (lambda r: {**_row_of_seed_4(), "seed": 0, "deck": r["deck"]}, "not a game of seed 0"),
        (lambda r: {k: v for k, v in r.items() if k != "line"}, "line None is not a list"),
    ],
)
def test_a_row_whose_line_does_not_reach_its_score_is_refused_by_resume_and_import(
    tmp_path: Path, forge: Any, needle: str
) -> None:
    """Each row's line is replayed on its seed's deal when read: `scoundrel-solve --seeds
    --out` (resuming) and `scoundrel-census import` refuse the forged row, naming file and
    line, instead of counting the seed as settled."""
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(_row_of_seed_4()) + "\n" + json.dumps(forge(BASE)) + "\n")
    env = {**os.environ, "PYTHONPATH": SRC}
    solve_run = subprocess.run(
        [sys.executable, "-m", "scoundrel_solver.cli.solve", "--seeds", "0:5", "--variant",
         "hard", "--quiet", "--out", str(path)],
        env=env, capture_output=True, text=True, timeout=120)
    census_import = subprocess.run(
        [sys.executable, "-m", "scoundrel_solver.cli.census", "import", "--db",
         str(tmp_path / "c.sqlite"), str(path)],
        env=env, capture_output=True, text=True, timeout=120)
    for done in (solve_run, census_import):
        assert done.returncode == 2, done.stderr
        assert f"{path}:2: " in done.stderr and needle in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1
    assert len(path.read_text().splitlines()) == 2  # nothing solved, nothing appended


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**64 - 1), st.sampled_from(["classic", "easy", "hard"]),
       st.sampled_from(["strict", "equal"]), st.lists(st.integers(0, 200), max_size=140),
       st.booleans(), st.booleans())
def test_the_fast_replay_agrees_with_play_line(seed: int, variant: str, rule: str,
                                                 picks: list[int], lower: bool,
                                                 swap: bool) -> None:
    """line_score (the compiled replay, for lines in the solver's notation) and
    replay_score (the Python one) are play_line's twins: on lines of legal moves, cut
    anywhere, with an illegal move added, in lower case, with the deal's deck or another:
    the same score or the same refusal."""
    from scoundrel_solver.runs.result_rows import line_score, replay_score

    v = sc.get_variant(variant, rule)
    s = sc.new_game(seed=seed, variant=v)
    line: list[str] = []
    for pick in picks:
        legal = sc.legal_actions(s)
        if not legal:
            break
        if pick == 200:  # an action that may well be illegal here
            line.append("KS/w")
            break
        text = str(legal[pick % len(legal)])
        line.append(text.lower() if lower and pick % 7 == 0 else text)
        s = sc.apply(s, text)
    deck = [str(c) for c in sc.deal(seed)]
    if swap:
        deck = _swapped(deck)
    try:
        end = sc.play_line(sc.new_game(seed=seed, variant=v), line)
        want: object = end.score if end.is_over else "not over"
    except sc.IllegalActionError as err:
        want = str(err)
    got = []
    for replay in (lambda: replay_score(sc.new_game(seed=seed, variant=v), line),
                   lambda: line_score(seed, v, line), lambda: line_score(seed, v, line, deck)):
        try:
            got.append(replay())
        except sc.IllegalActionError as err:
            got.append(str(err))
        except ValueError as err:
            got.append("deck" if "deck" in str(err) else "not over")
    assert got[:2] == [want, want]
    assert got[2] == ("deck" if swap else want)


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--max-nodes", str(2**63)], "is not an integer 1..9223372036854775807"),
        (["--max-seconds", "inf"], "is not a positive finite number"),
        (["--max-seconds", "1e400"], "is not a positive finite number"),
        (["--max-seconds", "nan"], "is not a positive finite number"),
    ],
)
def test_a_limit_the_reader_would_refuse_is_refused_by_the_parser(
    tmp_path: Path, argv: list[str], needle: str
) -> None:
    """One definition of each limit: what the results files' reader refuses, the parsers of
    `scoundrel-solve --seeds --out` and `scoundrel-census run` refuse first (exit 2, one
    line, nothing written)."""
    env = {**os.environ, "PYTHONPATH": SRC}
    out, db = tmp_path / "r.jsonl", tmp_path / "c.sqlite"
    commands = [[sys.executable, "-m", "scoundrel_solver.cli.solve", "--seeds", "0:2",
                 "--variant", "hard", "--quiet", "--out", str(out), *argv]]
    if "--max-seconds" in argv:
        commands.append([sys.executable, "-m", "scoundrel_solver.cli.census", "run",
                         "--seeds", "0:2", "--variant", "hard", "--db", str(db), *argv])
    for cmd in commands:
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 2, done.stderr
        assert needle in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr
    assert not out.exists() and not db.exists()


def test_the_largest_node_limit_is_written_and_read_back(tmp_path: Path) -> None:
    """`--max-nodes 2**63 - 1`, the largest the parser takes, is read back by the same run,
    by a resume and by a census import."""
    env = {**os.environ, "PYTHONPATH": SRC}
    out = tmp_path / "r.jsonl"
    cmd = [sys.executable, "-m", "scoundrel_solver.cli.solve", "--seeds", "0:3", "--variant",
           "hard", "--quiet", "--out", str(out), "--max-nodes", str(2**63 - 1)]
    for _ in range(2):
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
    assert [r["max_nodes"] for r in rows_of(out)] == [2**63 - 1] * 3
    done = subprocess.run([sys.executable, "-m", "scoundrel_solver.cli.census", "import",
                           "--db", str(tmp_path / "c.sqlite"), str(out)],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "3 saved" in done.stdout, done.stderr


def test_the_store_takes_its_limits_as_parameters(tmp_path: Path) -> None:
    """An infinite or tiny limit reaches SQLite as a parameter: the store answers, it is
    not called damaged (the float used to be formatted into the SQL text)."""
    from scoundrel_solver.census.store import CensusRow, Store

    with Store(tmp_path / "c.sqlite") as store:
        with store.transaction():
            store.add([CensusRow("hard", "strict", 1, 3, 9, False, True, 10, 0.5, "t", None,
                                 0.5)])
        for limit in (float("inf"), 1e-300, 5e-324):
            assert store.settled("hard", "strict", SeedRange(0, 5), limit) == (
                set() if limit > 0.5 else {1})


def test_append_missing_writes_each_missing_key_once_and_stops_between_keys(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    out.write_text('{"seed": 1}\n')
    seen: list[int] = []
    asked = iter([False, False, False, True])  # the fourth key is never started
    written = append_missing(out, [0, 1, 2, 3, 4], {1}, lambda k: {"seed": k, "sq": k * k},
                             stop=lambda: next(asked), progress=lambda k, line: seen.append(k))
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert written == 2 and seen == [0, 2]
    assert rows == [{"seed": 1}, {"seed": 0, "sq": 0}, {"seed": 2, "sq": 4}]
    # a rerun with what is now done writes only the rest
    done = {r["seed"] for r in rows}
    assert append_missing(out, [0, 1, 2, 3, 4], done, lambda k: {"seed": k}) == 2
    assert [json.loads(x)["seed"] for x in out.read_text().splitlines()] == [1, 0, 2, 3, 4]
