"""scoundrel-census: runs on a 2-worker Dask cluster equal solve(), survive a killed
worker and a killed client, and the store, summary, export and import keep their word."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scoundrel_solver import solve
from scoundrel_solver.census.store import SEED_SHIFT, Store
from scoundrel_solver.cli.census import main

pytestmark = pytest.mark.usefixtures("warm_solver")

SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[str, object]]:
    """One 2-worker local Dask cluster shared by the tests that only need a cluster."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", silence_logs=50) as lc, \
            distributed.Client(lc) as client:
        yield lc.scheduler_address, client


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def stored(db: Path) -> list[tuple[str, str, int, int, int, int, int | None]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT variant, weapon_rule, seed, best_score, upper_bound, proven, "
                            "winnable FROM results ORDER BY variant, weapon_rule, seed").fetchall()
    return [(v, w, s + SEED_SHIFT, b, u, p, x) for v, w, s, b, u, p, x in rows]


def expected(variant: str, weapon_rule: str, seeds: range) -> list[tuple[object, ...]]:
    out: list[tuple[object, ...]] = []
    for seed in seeds:
        r = solve(seed, variant=variant, weapon_rule=weapon_rule)
        out.append((variant, weapon_rule, seed, r.best_score, r.upper_bound, int(r.proven),
                    int(bool(r.winnable))))
    return out


def wait_for_rows(db: Path, at_least: int, proc: subprocess.Popen[str] | None = None) -> int:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the run ended early: {proc.communicate()}")
        try:
            with sqlite3.connect(db) as conn:
                n = int(conn.execute("SELECT COUNT(*) FROM results").fetchone()[0])
        except sqlite3.Error:
            n = 0
        if n >= at_least:
            return n
        time.sleep(0.05)
    raise AssertionError(f"no {at_least} rows in {db} after two minutes")


def start_run(db: Path, *argv: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    return subprocess.Popen(
        [sys.executable, "-m", "scoundrel_solver.cli.census", "run", "--db", str(db), *argv],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        start_new_session=True)  # its own process group, as a terminal's Ctrl-C sees it


def test_a_worker_killed_mid_chunk_loses_nothing(
    tmp_path: Path, cluster: tuple[str, object],
) -> None:
    address, client = cluster
    db = tmp_path / "c.sqlite"
    # Enough hard deals that the run is still going when ten rows are in (hard solves in ms).
    seeds = range(1000, 2000)
    pids = sorted(client.run(os.getpid).values())  # type: ignore[attr-defined]
    # The command runs in its own process, as a user runs it: one dask Client there, none
    # shared with this test's Client (two Clients on different threads of one process
    # clash over asyncio event loops when a worker dies).
    proc = start_run(db, "--seeds", f"{seeds.start}:{seeds.stop}", "--variant", "hard",
                     "--scheduler", address, "--chunk-size", "10")
    done = wait_for_rows(db, 10, proc)
    # Every worker holds chunks while the run goes on (several are in flight per worker
    # thread), so killing either one kills a worker mid-chunk.
    os.kill(pids[0], signal.SIGKILL)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert done < len(seeds)  # the kill came while the run was running
    assert stored(db) == expected("hard", "strict", seeds)


def test_client_killed_then_resumed_stores_every_seed_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, cluster: tuple[str, object],
) -> None:
    address = cluster[0]
    db = tmp_path / "c.sqlite"
    # Enough hard deals that the run is still going when ten rows are in (hard solves in
    # ms: a hundred could all be stored before the kill lands).
    proc = start_run(db, "--seeds", "0:1000", "--variant", "hard", "--weapon-rule", "equal",
                     "--scheduler", address, "--chunk-size", "10")
    before = wait_for_rows(db, 10, proc)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate()
    assert before < 1000
    code, out, err = run(capsys, "run", "--seeds", "0:1000", "--variant", "hard",
                         "--weapon-rule", "equal", "--db", str(db), "--scheduler", address)
    assert code == 0, err
    assert "already done" in out
    assert stored(db) == expected("hard", "equal", range(1000))
    code, out, _ = run(capsys, "run", "--seeds", "0:1000", "--variant", "hard",
                       "--weapon-rule", "equal", "--db", str(db), "--scheduler", address)
    assert code == 0 and "0 results saved" in out and "1000 already done" in out


def test_ctrl_c_saves_says_so_in_one_line_and_the_run_resumes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, cluster: tuple[str, object],
) -> None:
    db = tmp_path / "c.sqlite"
    # Its own LocalCluster: Ctrl-C reaches the client and its workers alike.
    proc = start_run(db, "--seeds", "2000:2150", "--variant", "hard", "--workers", "2",
                     "--chunk-size", "10")
    wait_for_rows(db, 20, proc)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130
    lines = err.splitlines()
    assert len(lines) == 1 and "interrupted" in lines[0], err
    saved = int(lines[0].split("; ")[1].split()[0])
    assert saved == len(stored(db)) < 150
    code, _, err = run(capsys, "run", "--seeds", "2000:2150", "--variant", "hard",
                         "--db", str(db), "--scheduler", cluster[0])
    assert code == 0, err
    rows = stored(db)
    assert [r[2] for r in rows] == list(range(2000, 2150)) and all(r[5] for r in rows)


def test_bad_input_gives_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n")
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    db = str(tmp_path / "c.sqlite")
    cases = [
        (["run", "--seeds", "0:10", "--variant", "medium", "--db", db], "medium"),
        (["run", "--seeds", "10:5", "--variant", "hard", "--db", db], "10:5"),
        (["run", "--seeds", "x", "--db", db], "'x'"),
        (["run", "--seeds", "0:10", "--variant", "hard", "--db", str(text)], "notes.txt"),
        (["summary", "--db", str(other)], "not a census database"),
        (["summary", "--db", str(tmp_path / "none.sqlite")], "no census database"),
        (["run", "--seeds", "0:10", "--variant", "hard", "--db", db,
          "--scheduler", "tcp://127.0.0.1:9"], "127.0.0.1:9"),
        (["run", "--seeds", "0:10", "--db", db, "--workers", "0"], "--workers"),
        (["export", "--db", str(other), "--out", str(tmp_path / "x.parquet")], "not a census"),
        (["import", "--db", db, str(text)], "notes.txt:1"),
        (["run", "--variant", "hard"], None),  # no --seeds: argparse, also one line
        (["frobnicate"], None),
    ]
    for argv, needle in cases:
        code, _, err = run(capsys, *argv)
        assert code == 2, (argv, err)
        assert len(err.splitlines()) == 1 and err.startswith("scoundrel-census: error:"), err
        assert needle is None or needle in err, (argv, err)
    Store(db).close()
    code, _, err = run(capsys, "export", "--db", db, "--out", str(tmp_path / "x.json"))
    assert code == 2 and ".parquet or .csv" in err
    monkeypatch.setitem(sys.modules, "distributed", None)  # the census extra not installed
    code, _, err = run(capsys, "run", "--seeds", "0:10", "--variant", "hard", "--db", db)
    assert code == 2 and len(err.splitlines()) == 1 and "scoundrel-solver[census]" in err


def test_solve_and_the_census_store_need_no_dask_or_pyarrow() -> None:
    probe = ("import sys\n"
             "import scoundrel_solver.cli.solve, scoundrel_solver.cli.census\n"
             "import scoundrel_solver.census.summary, scoundrel_solver.census.importer\n"
             "import scoundrel_solver.census.engine, scoundrel_solver.census.export\n"
             "print(sorted({'dask', 'distributed', 'pyarrow'} & set(sys.modules)))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(SRC)}, check=True).stdout
    assert out.strip() == "[]"


def test_unproven_deals_are_retried_when_the_limit_allows_more(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, cluster: tuple[str, object],
) -> None:
    db = tmp_path / "c.sqlite"
    base = ["run", "--seeds", "0:20", "--variant", "hard", "--db", str(db),
            "--scheduler", cluster[0]]
    assert run(capsys, *base, "--max-seconds", "0.0001")[0] == 0
    unproven = [r for r in stored(db) if not r[5]]
    assert unproven  # most deals need more than a tenth of a millisecond
    _, out, _ = run(capsys, *base, "--max-seconds", "0.0001")
    assert "0 results saved" in out  # the same limit would only repeat the same search
    assert run(capsys, *base)[0] == 0
    assert stored(db) == expected("hard", "strict", range(20))


def test_a_longer_limit_retries_every_unproven_deal_and_keeps_its_limit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, cluster: tuple[str, object],
) -> None:
    """`--max-seconds 0.004`, then `0.006`: every deal left unproven is retried and its row
    then carries the longer limit (a retry that searched fewer nodes, by timing noise, used
    to leave the shorter limit behind: 24 of 101 deals), so a third run under 0.006 has
    nothing left to retry."""
    db = tmp_path / "c.sqlite"
    base = ["run", "--seeds", "0:60", "--db", str(db), "--scheduler", cluster[0]]
    assert run(capsys, *base, "--max-seconds", "0.004")[0] == 0
    assert any(not r[5] for r in stored(db))  # classic deals need more than 4 ms
    assert run(capsys, *base, "--max-seconds", "0.006")[0] == 0
    with sqlite3.connect(db) as conn:
        short = conn.execute("SELECT COUNT(*) FROM results WHERE proven = 0 AND "
                             "max_seconds < 0.006").fetchone()[0]
    assert short == 0
    _, out, _ = run(capsys, *base, "--max-seconds", "0.006")
    assert "0 results saved" in out and "60 already done" in out, out
