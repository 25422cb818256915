"""Where things live: the exact search in its own package, light modules that stay light,
and the commands' help."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"


def _loaded_after(statement: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``statement``."""
    probe = f"import sys\n{statement}\nprint('\\n'.join(sys.modules))\n"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(SRC)}, check=True).stdout
    return set(out.split())


@pytest.mark.parametrize("module", [
    "scoundrel_solver", "scoundrel_solver.fair", "scoundrel_solver.fair.protocol",
    "scoundrel_solver.fair.optimum", "scoundrel_solver.jsonl", "scoundrel_solver.play.explain",
])
def test_light_modules_do_not_import_numba_or_a_search_kernel(module: str) -> None:
    loaded = _loaded_after(f"import {module}")
    heavy = {"numba", "scoundrel_solver.exact._kernel", "scoundrel_solver.fair._kernel"}
    assert not heavy & loaded, sorted(heavy & loaded)


def test_the_package_root_keeps_its_public_names() -> None:
    import scoundrel_solver
    from scoundrel_solver import SolverError, SolveResult, exact, solve

    assert solve is exact.solve and SolveResult is exact.SolveResult
    assert issubclass(SolverError, ValueError)
    assert solve(0).best_score == exact.solve(0).best_score
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = scoundrel_solver.nothing  # type: ignore[attr-defined]


def test_the_census_command_does_not_import_the_entry_points() -> None:
    """``cli/entry.py`` imports the commands, never the other way round (no cycle)."""
    assert "scoundrel_solver.cli.entry" not in _loaded_after("import scoundrel_solver.cli.census")


@pytest.mark.parametrize("command", ["run", "summary", "export", "import"])
def test_census_subcommands_describe_themselves(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from scoundrel_solver.cli.census import main

    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0
    lines = capsys.readouterr().out.split("\n\n")
    # usage, then a description paragraph, then the options
    assert len(lines) >= 3 and not lines[1].startswith(("options", "positional")), lines
