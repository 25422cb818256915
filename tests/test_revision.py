"""solver_version: the package version plus a hash of the exact solver's source."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from scoundrel_core._version import __version__
from scoundrel_solver.census.store import solver_version as store_version
from scoundrel_solver.revision import exact_source_hash, exact_source_modules, solver_version

SRC = Path(__file__).resolve().parents[1] / "src"
_PROJECT = ("scoundrel_core", "scoundrel_solver")


def _run(code: str, src: Path) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"PYTHONPATH": str(src), "PATH": ""}, timeout=300, check=True)
    return done.stdout.strip()


def test_the_version_names_the_package_and_the_source_hash() -> None:
    assert solver_version() == f"{__version__}+exact.{exact_source_hash()}"
    assert store_version() == solver_version()  # the census records this one


def test_the_hash_covers_every_module_the_solver_loads_and_no_command() -> None:
    # what importing the facade really loads, in a fresh interpreter
    loaded = _run("import sys, scoundrel_solver.exact.solve; print(' '.join(sorted("
                  f"m for m in sys.modules if m.split('.')[0] in {_PROJECT!r})))", SRC).split()
    modules = set(exact_source_modules())
    assert set(loaded) <= modules
    assert "scoundrel_core.deal" in modules  # the deals a seed means
    assert not [m for m in modules if ".cli" in m or ".census" in m or ".play" in m]


def test_changing_a_kernel_source_changes_the_hash(tmp_path: Path) -> None:
    copy = tmp_path / "src"
    for pkg in _PROJECT:
        shutil.copytree(SRC / pkg, copy / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    code = "from scoundrel_solver.revision import exact_source_hash as h; print(h())"
    before = _run(code, copy)
    assert before == exact_source_hash()
    kernel = next(p for p in (copy / "scoundrel_solver").rglob("*.py")
                  if "def run_search" in p.read_text())
    kernel.write_text(kernel.read_text() + "\n# a changed line\n")
    assert _run(code, copy) != before
