"""benchmarks/compare_fair_revisions.py: the replay of recorded searches on two revisions."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "compare_fair_revisions.py"


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("compare_fair_revisions", SCRIPT)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["compare_fair_revisions"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_first_difference_is_bit_for_bit() -> None:
    mod = _module()
    a = [np.array([1.0, 0.5, 1.0]), np.array([2.0, 0.25, 0.0])]
    b = [a[0].copy(), np.array([np.nextafter(2.0, 3.0), 0.25, 0.0])]
    assert mod.first_difference(a, [x.copy() for x in a]) is None
    assert mod.first_difference(a, b) == 1  # one ulp apart
    assert mod.first_difference(a, a[:1]) == 1  # a search missing


def test_bad_variant_is_named() -> None:
    out = subprocess.run([sys.executable, str(SCRIPT), "HEAD", "--variant", "nope"],
                         capture_output=True, text=True)
    assert out.returncode == 2
    assert "--variant 'nope'" in out.stderr and "Traceback" not in out.stderr


def test_a_revision_against_itself_gives_the_same_values() -> None:
    repo = SCRIPT.parents[1]
    if subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"],
                      capture_output=True).returncode != 0:
        pytest.skip("not a git checkout")
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "HEAD", "--candidate", "HEAD", "--variant", "easy",
         "--games", "1", "--rounds", "1"],
        capture_output=True, text=True, timeout=900,
    )
    assert out.returncode == 0, out.stderr
    assert "the same values bit for bit on both sides" in out.stdout
    assert "Ratio baseline / candidate:" in out.stdout
