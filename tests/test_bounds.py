"""Bounds and exit codes as a user meets them, through the real commands (issue 39,
items 5 and 17): a review of a record of endless flees, unwritable outputs, a
5000-digit number in a row, ``--record ''``, ``' 42'`` as a seed, numpy seeds.

Every command runs as a subprocess under a timeout, so a regression (an hour of
review, a hang) fails the test instead of holding the machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import scoundrel_core as sc
import scoundrel_solver
from scoundrel_core.record import MAX_RECORD_BYTES

SRC = Path(scoundrel_solver.__file__).resolve().parents[1]


def _run(module: str, *argv: str, timeout: float = 60, stdin: str = "") -> \
        subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", f"scoundrel_solver.cli.{module}", *argv],
                          capture_output=True, text=True, input=stdin, timeout=timeout,
                          env={**os.environ, "PYTHONPATH": str(SRC)})


def _one_line(r: subprocess.CompletedProcess[str]) -> str:
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr[-2000:]
    return lines[0]


# --- item 5: a record under the size cap, an hour of review ---------------------------------

def test_a_review_of_200000_flees_is_refused_in_seconds(tmp_path: Path) -> None:
    record = tmp_path / "flees.json"
    record.write_text(json.dumps({"format": "scoundrel-record/1", "seed": 7, "variant": "easy",
                                  "weapon_rule": "strict", "line": " ".join(["flee"] * 200_000)}))
    assert record.stat().st_size < MAX_RECORD_BYTES  # under the size cap: bytes are not enough
    r = _run("play", "--review", str(record), timeout=60)
    assert r.returncode == 2, r.stderr[-2000:]
    line = _one_line(r)
    assert str(record) in line and "200,000 decisions" in line and "at most 300" in line, line


def test_the_decision_bound_counts_decisions() -> None:
    from scoundrel_solver.coach.review import MAX_DECISIONS, ReviewTooLong, check_reviewable

    start = sc.new_game(seed=7, variant="easy")
    assert check_reviewable(start, ["flee"] * MAX_DECISIONS) == MAX_DECISIONS
    with pytest.raises(ReviewTooLong, match=f"{MAX_DECISIONS + 1} decisions"):
        check_reviewable(start, ["flee"] * (MAX_DECISIONS + 1))


# --- item 17: exit codes and messages --------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["solve", "--seeds", "0:2", "--variant", "hard", "--out", "{missing}/r.jsonl"],
    ["eval", "--agent", "random", "--seeds", "0:2", "--out", "{missing}/e.jsonl"],
    ["play", "--seed", "3", "--record", "{missing}/g.json"],
    ["census", "import", "{rows}", "--db", "{missing}/c.sqlite"],
])
def test_an_output_that_cannot_be_written_exits_1(argv: list[str], tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text("")
    argv = [a.replace("{missing}", str(tmp_path / "no-such-folder")).replace("{rows}", str(rows))
            for a in argv]
    r = _run(argv[0], *argv[1:], stdin="1\n")
    assert r.returncode == 1, r.stderr
    assert "no-such-folder" in _one_line(r)


def test_an_export_on_an_unwritable_path_exits_1(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    rows = tmp_path / "r.jsonl"
    assert _run("solve", "--seeds", "0:2", "--variant", "hard", "--out", str(rows),
                "--quiet").returncode == 0
    db = tmp_path / "c.sqlite"
    assert _run("census", "import", str(rows), "--db", str(db)).returncode == 0
    r = _run("census", "export", "--db", str(db), "--out", str(tmp_path / "nope" / "e.csv"))
    assert r.returncode == 1, r.stderr
    assert "e.csv" in _one_line(r)


def test_a_5000_digit_integer_in_a_row_names_the_file_and_line(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert _run("solve", "--seeds", "0:2", "--variant", "hard", "--out", str(out),
                "--quiet").returncode == 0
    rows = out.read_text().splitlines()
    rows.append(rows[0].replace('"nodes": ', '"nodes": ' + "9" * 5000 + ", \"x\": "))
    out.write_text("\n".join(rows) + "\n")
    for module, argv in (("solve", ["--seeds", "0:2", "--variant", "hard", "--out", str(out)]),
                         ("census", ["import", str(out), "--db", str(tmp_path / "c.sqlite")])):
        r = _run(module, *argv)
        assert r.returncode == 2, r.stderr
        line = _one_line(r)
        assert f"{out}:3" in line, line


def test_an_empty_record_name_is_refused_before_the_game() -> None:
    r = _run("play", "--seed", "3", "--record", "", stdin="1\n")
    assert r.returncode == 2, r.stderr
    assert r.stdout == ""  # no game was dealt
    assert "--record" in _one_line(r)


@pytest.mark.parametrize("text", [" 42", "42 ", "\t42"])
def test_seed_and_seeds_agree_on_a_seed_with_spaces(text: str) -> None:
    one = _run("solve", "--seed", text, "--variant", "hard")
    many = _run("solve", "--seeds", text, "--variant", "hard")
    assert one.returncode == many.returncode == 2, (one.stderr, many.stderr)
    assert "decimal digits" in _one_line(one) and "decimal digits" in _one_line(many)
    census = _run("census", "run", "--seeds", text, "--db", "/nonexistent/c.sqlite")
    assert census.returncode == 2, census.stderr


@pytest.mark.parametrize("kind", [np.int64, np.uint64, np.int32, np.uint8])
def test_numpy_integer_seeds_are_taken_as_integers(kind: type[np.integer]) -> None:
    from scoundrel_solver.fair.api import play_fair

    seed: Any = kind(7)  # typed as int; numpy's integers are taken too
    assert sc.new_game(seed=seed) == sc.new_game(seed=7)
    assert [c.id for c in sc.deal(seed)] == [c.id for c in sc.deal(7)]
    assert play_fair(seed).score == play_fair(7).score
    for bad in (np.float64(7), True, "7"):
        with pytest.raises(sc.SeedError):
            sc.new_game(seed=bad)  # type: ignore[arg-type]


def test_numpy_integer_seeds_in_the_envs() -> None:
    pytest.importorskip("gymnasium")
    from scoundrel_core.env.scalar import ScoundrelEnv
    from scoundrel_core.env.vector import ScoundrelVectorEnv

    env = ScoundrelEnv()
    int64: Any = np.int64(3)
    uint64: Any = np.uint64(3)
    a, _ = env.reset(seed=int64)
    b, _ = env.reset(seed=3)
    assert (a == b).all()
    venv = ScoundrelVectorEnv(3)
    a, _ = venv.reset(seed=uint64)
    b, _ = venv.reset(seed=3)
    assert (a == b).all()


# --- item 7: a batch's memory does not grow with its rows --------------------------------

_PEAK = ("import resource, sys\n"
         "from scoundrel_solver.cli.solve import main\n"
         "code = main(sys.argv[1:])\n"
         "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
         "raise SystemExit(code)\n")


def _peak_kib(n: int, *more: str) -> int:
    # --max-nodes 1: each deal costs a fraction of a millisecond, so rows pile up fast
    r = subprocess.run([sys.executable, "-c", _PEAK, "--seeds", f"0:{n}", "--variant", "hard",
                        "--max-nodes", "1", "--table-mib", "16", "--quiet", "--json", *more],
                       capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(SRC)})
    assert r.returncode == 0, r.stderr[-2000:]
    assert json.loads(r.stdout)["deals"] == n
    return int(r.stderr.strip().splitlines()[-1])


def test_a_batch_without_out_keeps_memory_flat_in_its_rows() -> None:
    """0.4 KB a row before (a tuple per seed, a float object per time); now 8 bytes a row
    for the times, and allocator noise."""
    few, many = 3_000, 23_000
    grown = _peak_kib(many) - _peak_kib(few)
    per_row = grown * 1024 / (many - few)
    assert per_row < 150, f"{per_row:.0f} bytes per row ({grown} KiB for {many - few} rows)"


def test_a_batch_with_out_keeps_memory_flat_in_its_rows(tmp_path: Path) -> None:
    """About 0.45 KB a row before (a tuple per seed of the file, held for the whole run);
    now the settled seeds in a sorted array (8 bytes each) and, while the file is read,
    its rows in columns of numbers. Both runs resume a whole file: they solve nothing,
    and read it twice (to skip what it settles, then for the summary)."""
    few, many = 3_000, 23_000
    whole = tmp_path / "many.jsonl"
    _peak_kib(many, "--out", str(whole))
    part = tmp_path / "few.jsonl"
    part.write_text("".join(whole.read_text().splitlines(keepends=True)[:few]))
    small, large = _peak_kib(few, "--out", str(part)), _peak_kib(many, "--out", str(whole))
    assert len(whole.read_text().splitlines()) == many  # nothing was solved again
    per_row = (large - small) * 1024 / (many - few)
    assert per_row < 200, f"{per_row:.0f} bytes per row ({large - small} KiB for " \
                          f"{many - few} rows)"
