"""benchmarks/compare_fair_games.py: whole games of two revisions, side by side."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "compare_fair_games.py"


@pytest.mark.parametrize(("argv", "named"), [
    (["--variant", "nope"], "unknown variant 'nope'"),
    (["--changes", '{"endgame_cap": -1}'], "endgame_cap -1"),
    (["--changes", '{"no_such": 1}'], "no_such"),
    (["--changes", "[1]"], "--changes [1]"),
    (["--changes", "{"], "--changes"),
    (["--seeds", "5:5"], "--seeds"),
    (["--block", "0"], "--block 0"),
])
def test_bad_input_is_named_before_anything_is_installed(argv: list[str], named: str) -> None:
    out = subprocess.run([sys.executable, str(SCRIPT), "HEAD", *argv], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 2
    assert named in out.stderr and "Traceback" not in out.stderr
    assert "installing" not in out.stderr
