"""The census store under damage, read-only disks, two creators at once and bad exports."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import fill_disk, free_disk
from scoundrel_solver.census.errors import CensusError, CensusSystemError
from scoundrel_solver.census.export import export
from scoundrel_solver.census.store import Store
from test_census_store import make, row

SRC = str(Path(__file__).resolve().parents[1] / "src")


def big_store(path: Path, n: int = 3000) -> None:
    make(path, [row(s, s % 30 - 10) for s in range(n)]).close()


def test_a_store_damaged_by_overwritten_bytes_is_one_line_naming_it(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    big_store(db)
    size = db.stat().st_size
    with open(db, "r+b") as f:  # overwrite a run of pages in the middle of the table
        f.seek(size // 3)
        f.write(os.urandom(size // 3))
    with (pytest.raises(CensusError, match=f"census database '{db}' is damaged"),
          Store(db, create=False) as store):
        list(store.rows())
        store.count()


def test_a_store_whose_header_is_overwritten_is_damaged_or_not_a_store(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    big_store(db, 200)
    with open(db, "r+b") as f:
        f.seek(16)
        f.write(b"\xff" * 84)  # page size and the rest of the header
    with pytest.raises(CensusError, match=str(db)):
        Store(db, create=False)


def test_the_right_marker_with_the_wrong_tables_is_damaged(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    big_store(db, 10)
    conn = sqlite3.connect(db)
    conn.execute("ALTER TABLE results RENAME TO other")
    conn.execute("CREATE TABLE results (variant TEXT, seed INTEGER)")
    conn.commit()
    conn.close()
    with pytest.raises(CensusError, match="is damaged: its results table lacks weapon_rule"):
        Store(db, create=False)
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE results")
    conn.commit()
    conn.close()
    with pytest.raises(CensusError, match="is damaged"):
        Store(db, create=False)


def test_a_store_from_before_the_limit_columns_gains_them(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    big_store(db, 5)
    conn = sqlite3.connect(db)
    conn.execute("ALTER TABLE results DROP COLUMN max_nodes")
    conn.execute("ALTER TABLE results DROP COLUMN max_seconds")
    conn.commit()
    conn.close()
    with Store(db, readonly=True) as store:  # read as it is: limits not known
        assert [r.max_seconds for r in store.rows()] == [None] * 5
    with Store(db, create=False) as store:
        with store.transaction():
            store.add([row(9, 3, proven=False)._replace(max_seconds=1.5)])
        assert [r.max_seconds for r in store.rows()][-1] == 1.5


@pytest.fixture
def read_only_disk(small_disk: Path) -> Path:
    big_store(small_disk / "c.sqlite", 500)
    done = subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], capture_output=True,
                          text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot remount read-only: {done.stderr.strip()}")
    return small_disk


def test_a_read_only_store_reads_for_summary_and_export(read_only_disk: Path,
                                                        tmp_path: Path) -> None:
    db = read_only_disk / "c.sqlite"
    with Store(db, readonly=True) as store:
        assert store.count() == 500
        assert export(store, tmp_path / "out.csv") == 500
        with pytest.raises(CensusError, match="opened to read only"), store.transaction():
            pass


def test_two_processes_creating_one_store_at_once_both_succeed(tmp_path: Path) -> None:
    # Each process waits for a file to appear, so all of them open the new store at once.
    code = ("import os, sys, time; from scoundrel_solver.census.store import Store, CensusRow\n"
            "while not os.path.exists(sys.argv[3]): time.sleep(0.001)\n"
            "with Store(sys.argv[1]) as s:\n"
            "    with s.transaction():\n"
            "        s.add([CensusRow('hard', 'strict', int(sys.argv[2]), 3, 3, True, True, 1,"
            " 0.1, 't')])\n")
    env = {**os.environ, "PYTHONPATH": SRC}
    for attempt in range(2):
        db, go = tmp_path / f"c{attempt}.sqlite", tmp_path / f"go{attempt}"
        procs = [subprocess.Popen([sys.executable, "-c", code, str(db), str(i), str(go)],
                                  env=env, stderr=subprocess.PIPE, text=True) for i in range(4)]
        time.sleep(1.0)  # let them import and wait
        go.touch()
        errors = [p.communicate(timeout=120)[1] for p in procs]
        assert [p.returncode for p in procs] == [0] * 4, errors
        with Store(db, create=False) as store:
            assert store.count() == 4


def test_export_onto_the_store_itself_is_refused_however_named(tmp_path: Path) -> None:
    db = tmp_path / "same.csv"
    big_store(db)
    before = db.read_bytes()
    (tmp_path / "sub").mkdir()
    os.link(db, tmp_path / "hard.csv")
    (tmp_path / "soft.csv").symlink_to(db)
    with Store(db, create=False) as store:
        for out in (db, tmp_path / "sub" / ".." / "same.csv", tmp_path / "hard.csv",
                    tmp_path / "soft.csv"):
            with pytest.raises(CensusError, match="it is the census database"):
                export(store, out)
        assert store.count() == 3000
    assert db.read_bytes()[:100] == before[:100]


def test_a_failed_export_leaves_the_earlier_file_whole(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    big_store(db)
    out = tmp_path / "e.csv"
    with Store(db, create=False) as store:
        export(store, out)
    good = out.read_bytes()
    with open(db, "r+b") as f:
        f.seek(db.stat().st_size // 2)
        f.write(os.urandom(db.stat().st_size // 2))
    with Store(db, create=False) as store, pytest.raises(CensusError, match="damaged"):
        export(store, out)
    assert out.read_bytes() == good
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.sqlite", "e.csv"]


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_an_export_on_a_full_disk_keeps_the_earlier_file(small_disk: Path, tmp_path: Path,
                                                         suffix: str) -> None:
    db = tmp_path / "c.sqlite"
    big_store(db)
    out = small_disk / f"e{suffix}"
    with Store(db, create=False) as store:
        export(store, out)
        good = out.read_bytes()
        fill_disk(small_disk, leave=len(good) // 2)
        with pytest.raises(CensusSystemError, match="disk full; the previous file, if any, is"):
            export(store, out)
    assert out.read_bytes() == good
    assert sorted(p.name for p in small_disk.iterdir()) == ["e" + suffix, "filler"]
    free_disk(small_disk)


def test_a_store_on_a_full_disk_keeps_what_was_committed(small_disk: Path) -> None:
    db = small_disk / "c.sqlite"
    big_store(db, 100)
    with Store(db, create=False) as store:
        fill_disk(small_disk)
        with pytest.raises(CensusSystemError, match="disk full; every chunk committed before"):
            for start in range(1000, 100_000, 1000):
                with store.transaction():
                    store.add([row(s, 5) for s in range(start, start + 1000)])
    free_disk(small_disk)
    with Store(db, create=False) as store:
        n = store.count()
        assert n >= 100 and n % 100 == 0  # whole transactions only
        assert shutil.disk_usage(small_disk).free > 0


def test_run_without_the_census_extra_leaves_no_store(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    code = ("import sys; sys.modules['distributed'] = None\n"  # as if the extra were missing
            "from scoundrel_solver.cli.census import main\n"
            f"sys.exit(main(['run', '--seeds', '0:3', '--db', {str(db)!r}]))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": SRC}, timeout=120)
    assert done.returncode == 2
    assert "needs the 'census' extra" in done.stderr and done.stderr.count("\n") == 1
    assert not db.exists()


def test_chunk_size_is_bounded_before_anything_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from scoundrel_solver.cli.census import main

    db = tmp_path / "c.sqlite"
    assert main(["run", "--seeds", "0:3", "--db", str(db), "--chunk-size", str(10**12)]) == 2
    assert "--chunk-size 1000000000000 must be 1..100,000" in capsys.readouterr().err
    assert not db.exists()


def test_summary_and_export_commands_read_a_read_only_store(
    read_only_disk: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from scoundrel_solver.cli.census import main

    db = str(read_only_disk / "c.sqlite")
    assert main(["summary", "--db", db, "--json"]) == 0
    assert '"deals": 500' in capsys.readouterr().out
    assert main(["export", "--db", db, "--out", str(tmp_path / "e.csv")]) == 0
    assert (tmp_path / "e.csv").read_text().count("\n") == 501
    # an export a read-only disk cannot take: the system's refusal, exit 1
    assert main(["export", "--db", db, "--out", db.replace(".sqlite", ".csv")]) == 1


def _census(*argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run([sys.executable, "-m", "scoundrel_solver.cli.census", *argv],
                          env=env, capture_output=True, text=True, timeout=120)


def test_summary_of_a_store_with_overwritten_pages_is_one_line(tmp_path: Path) -> None:
    """`summary` reads inside the same guard as run, import and export."""
    db = tmp_path / "c.sqlite"
    big_store(db)
    size = db.stat().st_size
    with open(db, "r+b") as f:  # overwrite a run of pages in the middle of the table
        f.seek(size // 3)
        f.write(os.urandom(size // 3))
    for argv in (["summary"], ["summary", "--json"]):
        done = _census(*argv, "--db", str(db))
        assert done.returncode == 2, done.stderr
        # random pages either break SQLite's reading (damaged) or leave rows it reads
        # as garbage, which the row checks then refuse: one line naming the store either way
        assert (f"census database '{db}' is damaged" in done.stderr
                or (f"census database '{db}': the row of" in done.stderr
                    and "changed by hand" in done.stderr)), done.stderr
        assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        ("best_score = 999, upper_bound = 999", "best_score 999 is outside -188..30"),
        ("variant = 'medium'", "variant 'medium' is not one of"),
        ("winnable = 0", "winnable false, but a proven score of 4 wins"),
        ("seconds = -1.5", "seconds -1.5 is not a non-negative finite number"),
        ("nodes = 'many'", "nodes 'many' is not an integer"),
        ("best_score = 'x'", "best_score 'x' is not an integer"),
        ("seed = 'x'", "seed 'x' is not an integer"),
        ("proven = 7", "proven 7 is not true or false"),
        ("max_seconds = 9e999", "max_seconds inf"),
    ],
)
def test_summary_and_export_refuse_a_row_edited_in_the_store(
    tmp_path: Path, edit: str, needle: str
) -> None:
    """Stored rows are checked with the results files' rules as they are read: summary and
    export refuse an edited row in one line naming the store and the row (they used to
    count it, export it, or end in a traceback)."""
    db = tmp_path / "c.sqlite"
    make(db, [row(s, 4) for s in range(5)]).close()
    conn = sqlite3.connect(db)
    conn.execute(f"UPDATE results SET {edit} WHERE seed = ?", (3 - 2**63,))
    conn.commit()
    conn.close()
    for argv in (["summary"], ["summary", "--json"], ["export", "--out",
                                                      str(tmp_path / "e.parquet")],
                 ["export", "--out", str(tmp_path / "e.csv")]):
        done = _census(*argv, "--db", str(db))
        assert done.returncode == 2, (argv, done.stdout, done.stderr)
        assert needle in done.stderr and str(db) in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1
    assert not (tmp_path / "e.parquet").exists() and not (tmp_path / "e.csv").exists()


_VALUES = st.one_of(st.none(), st.integers(-300, 300), st.sampled_from([2**62, -(2**62)]),
                    st.floats(allow_nan=False), st.sampled_from(["x", "hard", "strict", ""]))
_COLUMNS = ("variant", "weapon_rule", "best_score", "upper_bound", "proven", "winnable",
            "nodes", "seconds", "max_nodes", "max_seconds")


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(_COLUMNS), _VALUES, max_size=3))
def test_the_sql_row_check_agrees_with_check_row(edits: dict[str, object]) -> None:
    """Store.check_rows (SQL, for the summary) is the twin of the per-row check the
    export and every reader apply (check_row): on rows edited at random they refuse the
    same rows."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "c.sqlite"
        make(db, [row(1, 4), row(2, -3, proven=False, upper=9)]).close()
        conn = sqlite3.connect(db)
        try:
            for column, value in edits.items():
                conn.execute(f"UPDATE results SET {column} = ? WHERE seed = ?",
                             (value, 2 - 2**63))
            conn.commit()
        except sqlite3.IntegrityError:  # NOT NULL or the key: SQLite itself refuses
            return
        finally:
            conn.close()
        with Store(db, readonly=True) as store:
            try:
                list(store.rows())
                slow = None
            except CensusError as err:
                slow = str(err)
            try:
                store.check_rows()
                fast = None
            except CensusError as err:
                fast = str(err)
        assert fast == slow
