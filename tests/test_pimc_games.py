"""scripts/pimc_games.py: PIMC's rows, resumption and table hold together (the hybrids
with the fair agent are experiments/pimc_hybrids.py's, tested there)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import SCRIPTS, load_script

SCRIPT = SCRIPTS / "pimc_games.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=600)


def test_play_resume_and_table(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    # an old row without variant keys counts as classic/strict and is not played again
    out.write_text(json.dumps({"agent": "pimc", "samples": 2, "seed": 1, "won": False,
                               "score": -1, "decisions": 1, "seconds": 0.0,
                               "decision_seconds": [0.0]}) + "\n")
    r = _run("play", "--samples", "2", "--seeds", "0:2", "--out", str(out))
    assert r.returncode == 0, r.stderr
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["seed"] for x in rows] == [1, 0]
    assert rows[1]["variant"] == "classic" and rows[1]["solves"] > 0
    assert "pimc_above" not in rows[1]
    # hard rows beside them: another game, so seed 1 is played for it
    r = _run("play", "--agent", "pimc", "--samples", "2", "--variant", "hard",
             "--seeds", "1:2", "--out", str(out))
    assert r.returncode == 0, r.stderr
    table = _run("table", str(out))
    assert table.returncode == 0, table.stderr
    assert "| pimc | 2 | 0-1 | " in table.stdout
    assert "| pimc (hard/strict) | 2 | 1-1 | " in table.stdout
    only = _run("table", str(out), "--variant", "hard")
    assert "| pimc (hard/strict) | 2 | 1-1 | " in only.stdout
    assert "| pimc | 2 | 0-1 | " not in only.stdout
    none = _run("table", str(out), "--variant", "easy")
    assert none.returncode != 0 and "no games in" in none.stderr


def test_the_table_reads_the_same_rows_from_parquet(tmp_path: Path) -> None:
    """A finished round's records are kept as Parquet: the table reads them as the JSON
    lines they were, a key a row lacked (``pimc_above``) left out again."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    pimc_games = load_script("pimc_games")
    rows: list[dict[str, object]] = [
        {"agent": "pimc", "samples": 2, "seed": 0, "won": True, "score": 3,
         "decisions": 2, "seconds": 0.5, "decision_seconds": [0.1, 0.2]},
        {"agent": "late", "samples": 2, "seed": 0, "won": False, "score": -4,
         "decisions": 1, "seconds": 0.2, "decision_seconds": [0.2], "pimc_above": 24}]
    lines = tmp_path / "g.jsonl"
    lines.write_text("".join(json.dumps(r) + "\n" for r in rows))
    parquet = tmp_path / "g.parquet"
    keys = list(dict.fromkeys(k for r in rows for k in r))  # every row has every column
    pq.write_table(pa.Table.from_pylist([{k: r.get(k) for k in keys} for r in rows]), parquet)
    assert pimc_games.read_rows(parquet) == pimc_games.read_rows(lines) == rows
    assert _run("table", str(parquet)).stdout == _run("table", str(lines)).stdout


def test_bad_options_are_named(tmp_path: Path) -> None:
    out = str(tmp_path / "g.jsonl")
    r = _run("play", "--variant", "nope", "--out", out)
    assert r.returncode != 0 and "unknown variant 'nope'" in r.stderr
    assert "Traceback" not in r.stderr
    r = _run("play", "--agent", "late", "--out", out)  # the hybrids are experiments'
    assert r.returncode != 0 and "invalid choice: 'late'" in r.stderr
    r = _run("play", "--seeds", "0:1", "--out", str(tmp_path / "g.parquet"))
    assert r.returncode != 0 and "g.parquet" in r.stderr and "JSON lines" in r.stderr
    assert not (tmp_path / "g.parquet").exists()
    r = _run("play", "--samples", "0", "--out", out)
    assert r.returncode != 0 and "samples 0 must be an integer" in r.stderr
    assert "Traceback" not in r.stderr and not Path(out).exists()
