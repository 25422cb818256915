"""The code stays ruff clean and mypy --strict clean (run inside the test command)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True)


def test_ruff_clean() -> None:
    out = _run("ruff", "check", "src", "tests", "benchmarks", "examples", "scripts", "experiments",
                "notebooks")
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_strict_clean() -> None:
    out = _run("mypy", "src")
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_strict_clean_experiments() -> None:
    # The experiments import the scripts' helpers (timed.py) and each other by path, as
    # they are run, so mypy is told where to find them.
    env = {**os.environ, "MYPYPATH": os.pathsep.join(["scripts", "experiments"])}
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", "experiments"], cwd=ROOT,
                         capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stdout + out.stderr
