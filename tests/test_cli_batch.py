"""scoundrel-solve --seeds: what a results file promises, item by item (issue 8, items 5, 8-12).

One result per seed and variant whatever the file holds, safe to stop and
resume, unproven results retried when the limits allow more, and every file
problem a one-line error naming the file.
"""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

import scoundrel_core as sc
from scoundrel_solver import solve
from scoundrel_solver.cli.solve import main
from scoundrel_solver.runs.batch import Batch, Limits, read_results
from scoundrel_solver.runs.jsonl import ResultsFileError
from scoundrel_solver.runs.seeds import SeedRange
from scoundrel_solver.runs.workers import KernelWorker

pytestmark = pytest.mark.usefixtures("warm_solver")

HARD = sc.get_variant("hard")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def batch(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code, out, err = run(capsys, "--json", *argv)
    assert code == 0 and err == "", err  # no progress bar: stderr is not a terminal here
    summary: dict[str, Any] = json.loads(out)
    return summary


def rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_rows_carry_the_limits_they_ran_under(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "r.jsonl"
    batch(capsys, "--seeds", "0:2", "--variant", "hard", "--out", str(out), "--max-seconds", "60")
    assert [(r["seed"], r["max_nodes"], r["max_seconds"]) for r in rows(out)] == [
        (0, None, 60.0), (1, None, 60.0)]


def test_duplicates_count_once(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Item 10: a file concatenated with itself still holds one result per seed."""
    one = tmp_path / "b.jsonl"
    first = batch(capsys, "--seeds", "0:3", "--variant", "hard", "--out", str(one))
    twice = tmp_path / "d.jsonl"
    twice.write_text(one.read_text() * 2)
    again = batch(capsys, "--seeds", "0:3", "--variant", "hard", "--out", str(twice))
    assert again["deals"] == first["deals"] == 3
    assert {k: again[k] for k in ("proven", "winnable", "scores")} == {
        k: first[k] for k in ("proven", "winnable", "scores")}
    assert len(rows(twice)) == 6  # nothing was solved again


def test_a_proven_row_beats_an_unproven_one(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    list(Batch(SeedRange(0, 2), HARD, out).run())
    proven = rows(out)
    unproven = [{**solve(r["seed"], variant="hard", max_nodes=1).to_json(), "max_nodes": 1,
                 "max_seconds": None} for r in proven]
    assert not any(r["proven"] for r in unproven)
    out.write_text("".join(json.dumps(r) + "\n" for r in unproven + proven + unproven))
    b = Batch(SeedRange(0, 2), HARD, out)
    assert b.todo_count == 0
    assert sorted(r.score for r in b.results()) == sorted(r["best_score"] for r in proven)


def test_rows_without_a_seed_are_skipped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Item 9: a --deck result appended to the file ("seed": null) does not break a resume."""
    out = tmp_path / "r.jsonl"
    batch(capsys, "--seeds", "0:2", "--variant", "hard", "--out", str(out))
    deck = " ".join(str(c) for c in sc.deal(7))
    code, line, _ = run(capsys, "--deck", deck, "--variant", "hard", "--json")
    assert code == 0 and json.loads(line)["seed"] is None
    with out.open("a") as f:
        f.write(line + '{"seed": null, "note": "anything"}\n')
    summary = batch(capsys, "--seeds", "0:3", "--variant", "hard", "--out", str(out))
    assert summary["deals"] == 3 and len(rows(out)) == 5


def test_unproven_results_are_retried_when_the_limits_allow_more(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Item 11: re-solved without a limit or under a larger one, not under the same one."""
    out = tmp_path / "m.jsonl"
    args = ["--seeds", "0:3", "--out", str(out)]
    assert batch(capsys, *args, "--max-nodes", "1")["proven"] == 0
    assert batch(capsys, *args, "--max-nodes", "1")["proven"] == 0
    assert len(rows(out)) == 3  # the same limit cannot do better: nothing re-solved
    batch(capsys, *args, "--max-nodes", "2")
    assert len(rows(out)) == 6  # a larger limit may: all three re-solved
    summary = batch(capsys, *args)
    assert summary["deals"] == 3 and summary["proven"] == 3
    assert len(rows(out)) == 9
    assert batch(capsys, *args)["proven"] == 3 and len(rows(out)) == 9  # proven: settled


def test_limits_decide_a_retry_by_what_stopped_the_search() -> None:
    by_nodes = {"proven": False, "stopped_by": "max_nodes", "max_nodes": 1000, "max_seconds": 5}
    assert Limits(max_nodes=1001).retries(by_nodes)
    assert not Limits(max_nodes=1000, max_seconds=60).retries(by_nodes)
    by_time = {"proven": False, "stopped_by": "max_seconds", "max_nodes": None, "max_seconds": 5}
    assert Limits().retries(by_time) and Limits(max_seconds=5.5).retries(by_time)
    assert not Limits(max_seconds=5).retries(by_time)
    unknown = {"proven": False, "stopped_by": "max_seconds"}  # written without its limits
    assert Limits().retries(unknown) and not Limits(max_seconds=1e300).retries(unknown)


def test_the_range_is_never_listed(tmp_path: Path) -> None:
    """Item 5: planning 0:10**7 over a results file, and solving its first deal, takes
    memory for the file's rows, not for ten million seeds."""
    out = tmp_path / "r.jsonl"
    list(Batch(SeedRange(0, 3), HARD, out).run())
    tracemalloc.start()
    try:
        b = Batch(SeedRange(0, 10**7), HARD, out)
        assert b.todo_count == 10**7 - 3
        first = next(b.run())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert first.seed == 3
    assert peak < 2 << 20  # a list of the range alone would take 80 MB
    whole = Batch(SeedRange(0, 2**64), HARD)
    assert whole.todo_count == 2**64 and next(whole.todo()) == 0


def test_the_last_seeds_of_the_seed_space(capsys: pytest.CaptureFixture[str]) -> None:
    summary = batch(capsys, "--seeds", f"{2**64 - 2}:{2**64}", "--variant", "hard")
    assert summary["deals"] == 2 and summary["seeds"] == f"{2**64 - 2}:{2**64}"


def test_a_row_cut_short_is_ignored_then_removed(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    list(Batch(SeedRange(0, 2), HARD, out).run())
    text = out.read_text()
    out.write_text(text + text.splitlines()[0][:50])  # a run stopped mid-line
    assert [r["seed"] for r in read_results(out)] == [0, 1]
    b = Batch(SeedRange(0, 3), HARD, out)
    assert b.todo_count == 1 and out.read_text() == text
    list(b.run())
    assert [r["seed"] for r in rows(out)] == [0, 1, 2]


def test_a_last_line_that_never_was_a_row_is_not_removed(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    with pytest.raises(ResultsFileError, match="not a JSON line"):
        Batch(SeedRange(0, 2), HARD, notes)
    assert notes.read_text() == "my notes"


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (b"\x7fELF\x02\x01\x01\x00\xff\xfe\x00", "not UTF-8 text"),
        (b"hello\n", ":1: not a JSON line"),
        (b'{"seed": 1}\n', ":1: not a solver result"),
        (b'[1, 2]\n', ":1: not a solver result"),
        (b'{"seed": "x", "proven": true}\n', ":1: seed 'x'"),
        (b"[" * 100_000 + b"\n", ":1: not a JSON line"),
    ],
)
def test_a_file_that_is_not_a_results_file_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes, needle: str
) -> None:
    """Item 8: exit 2, one line naming the file."""
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(content)
    code, out, err = run(capsys, "--seeds", "0:2", "--variant", "hard", "--out", str(bad))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert str(bad) in err and needle in err
    with pytest.raises(ResultsFileError):
        Batch(SeedRange(0, 2), HARD, bad)


@pytest.mark.parametrize("where", ["folder", "missing-folder"])
def test_an_out_path_that_cannot_be_written_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, where: str
) -> None:
    """Item 8: --out a folder, or in a folder that does not exist: an output that cannot
    be written, exit 1 (issue 39, item 17)."""
    path = tmp_path if where == "folder" else tmp_path / "nowhere" / "x.jsonl"
    code, out, err = run(capsys, "--seeds", "0:2", "--variant", "hard", "--out", str(path))
    assert code == 1 and out == "" and err.count("\n") == 1 and str(path) in err


def test_ctrl_c_lets_the_deal_finish_and_counts_what_was_saved(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 13, in process: Ctrl-C while seed 1 is solved; its row is still written and
    counted, nothing after it is solved, and the message says how many rows were saved."""
    import os
    import signal

    import scoundrel_solver.runs.batch as batch_module
    from scoundrel_solver import solve as real_solve

    def solve_then_ctrl_c(seed: int, **kwargs: Any) -> Any:
        result = real_solve(seed, **kwargs)
        if seed == 1:
            os.kill(os.getpid(), signal.SIGINT)
        return result

    monkeypatch.setattr(batch_module, "solve", solve_then_ctrl_c)
    # The deals solved in this process, which the signal above is sent to; the worker's
    # way is tests/test_stop_kernels.py's.
    monkeypatch.setattr(KernelWorker, "available", staticmethod(lambda: False))
    out = tmp_path / "r.jsonl"
    code, stdout, err = run(capsys, "--seeds", "0:5", "--variant", "hard", "--out", str(out))
    assert code == 130 and stdout == ""
    assert err == f"scoundrel-solve: interrupted; 2 new results saved in {out}; the same " \
                  "command resumes\n"
    assert [r["seed"] for r in rows(out)] == [0, 1]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # handler restored
    code, stdout, err = run(capsys, "--seeds", "0:5", "--variant", "hard", "--out", str(out))
    assert code == 0 and err == ""  # the same command resumes: seed 1 is not solved again
    assert [r["seed"] for r in rows(out)] == [0, 1, 2, 3, 4]


# --- item 7 of issue 39: the compact reading and its slow twin -------------------------------

_POOL_LIMITS = (1, 3, 30, None)


@pytest.fixture(scope="module")
def row_pool() -> list[dict[str, Any]]:
    """Real rows of hard seeds 0..7 under several node limits (unproven and proven)."""
    return [{**solve(seed, variant="hard", max_nodes=limit).to_json(), "max_nodes": limit,
             "max_seconds": None} for seed in range(8) for limit in _POOL_LIMITS]


def _twin(file_rows: list[dict[str, Any]], seeds: SeedRange,
          limits: Limits) -> tuple[list[int], Any]:
    """What the batch promises, row by row with a dict per seed (the way it was kept before)."""
    from scoundrel_solver.runs.summary import Outcome, summarize

    best: dict[int, tuple[tuple[bool, int, int], dict[str, Any]]] = {}
    settled: set[int] = set()
    for row in file_rows:
        seed = row["seed"]
        if seed not in seeds:
            continue
        rank = (row["proven"], row["best_score"], -row["upper_bound"])
        if seed not in best or rank > best[seed][0]:  # the first of equals stays
            best[seed] = (rank, row)
        if row["proven"] or not limits.retries(row):
            settled.add(seed)
    todo = [s for s in seeds if s not in settled]
    return todo, summarize(Outcome(score=r["best_score"], won=r["best_score"] > 0,
                                   seconds=r["seconds"], proven=r["proven"], nodes=r["nodes"])
                           for _, r in best.values())


def test_the_compact_reading_agrees_with_its_slow_twin(
    row_pool: list[dict[str, Any]], tmp_path_factory: pytest.TempPathFactory
) -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=80, deadline=None)
    @given(picks=st.lists(st.integers(0, len(row_pool) - 1), max_size=40),
           start=st.integers(0, 9), width=st.integers(1, 10),
           limit=st.sampled_from(_POOL_LIMITS),
           seconds=st.lists(st.sampled_from([0.25, 0.5, 0.001]), min_size=40, max_size=40))
    def check(picks: list[int], start: int, width: int, limit: int | None,
              seconds: list[float]) -> None:
        # Rows of one deal and rank that differ in time and nodes: the first one counts.
        file_rows = [{**row_pool[i], "seconds": secs}
                     for i, secs in zip(picks, seconds[:len(picks)], strict=True)]
        out = tmp_path_factory.mktemp("twin") / "r.jsonl"
        out.write_text("".join(json.dumps(r) + "\n" for r in file_rows))
        seeds, limits = SeedRange(start, start + width), Limits(max_nodes=limit)
        todo, summary = _twin(file_rows, seeds, limits)
        b = Batch(seeds, HARD, out, limits)
        assert list(b.todo()) == todo and b.todo_count == len(todo)
        assert b.summary() == summary
        assert sorted(o.score for o in b.results()) == sorted(summary.scores.elements())

    check()

