"""Provenance stamps: written by the producers, read back the same."""

from __future__ import annotations

import csv
import re
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from scoundrel_core._version import __version__
from scoundrel_solver.provenance import (
    csv_header,
    parquet_metadata,
    provenance,
    read_provenance,
    script_provenance,
)

ROOT = Path(__file__).resolve().parents[1]


def test_the_stamp_names_the_command_the_commit_the_date_and_the_version() -> None:
    p = provenance(["/some/venv/bin/scoundrel-census", "export", "--out", "a b.parquet"])
    assert p["command"] == "scoundrel-census export --out 'a b.parquet'"
    head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT,
                          capture_output=True, text=True).stdout.strip()
    assert p["commit"].split("-")[0] == head
    assert re.fullmatch(r"20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ", p["date"])
    assert p["version"] == __version__
    assert provenance(["scripts/x.py", "--n", "3"])["command"] == "python scripts/x.py --n 3"


def test_a_script_called_with_arguments_names_itself() -> None:
    here = script_provenance(str(ROOT / "scripts" / "fair_games.py"), ["--seeds", "0:3"])
    assert here["command"].endswith("scripts/fair_games.py --seeds 0:3")
    assert here["command"].startswith("python ")
    # no arguments given: the process's own command line
    assert script_provenance("x.py", None)["command"] == provenance(sys.argv)["command"]


def test_csv_and_parquet_stamps_read_back(tmp_path: Path) -> None:
    p = provenance(["scoundrel-solve", "--seed", "1"])
    path = tmp_path / "t.csv"
    path.write_text(csv_header(p) + "a,b\n1,2\n")
    assert read_provenance(path) == p
    rows = list(csv.DictReader(line for line in path.open() if not line.startswith("#")))
    assert rows == [{"a": "1", "b": "2"}]
    table = pa.table({"a": [1]}).replace_schema_metadata(parquet_metadata(p))
    pq.write_table(table, tmp_path / "t.parquet")
    assert read_provenance(tmp_path / "t.parquet") == p
    pq.write_table(pa.table({"a": [1]}), tmp_path / "plain.parquet")
    assert read_provenance(tmp_path / "plain.parquet") == {}
