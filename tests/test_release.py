"""A release builds: an sdist and a wheel that twine accepts, holding what the package needs.

The wheel installed into a clean virtual environment without extras is
checked by ``.ci/run`` before the test command (it needs numpy and numba
downloaded into a fresh environment, too slow for the test suite).
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from scoundrel_core._version import __version__

ROOT = Path(__file__).resolve().parents[1]
DIST_INFO = f"scoundrel_solver-{__version__}.dist-info"
"""The wheel's metadata folder: the distribution is ``scoundrel-solver`` (``scoundrel`` on the
package index is another project's); the import names stay ``scoundrel_core`` and
``scoundrel_solver``."""


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    # --no-isolation: the release extra brings the backend, so nothing is downloaded
    done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out),
                           str(ROOT)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


def test_build_makes_an_sdist_and_a_wheel_of_this_version(dist: Path) -> None:
    names = sorted(p.name for p in dist.iterdir())
    assert names == [f"scoundrel_solver-{__version__}-py3-none-any.whl",
                     f"scoundrel_solver-{__version__}.tar.gz"]


def test_twine_accepts_both(dist: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "twine", "check", "--strict",
                           *map(str, sorted(dist.iterdir()))], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2


def test_the_wheel_holds_the_packages_and_their_data_and_nothing_else(dist: Path) -> None:
    wheel = next(dist.glob("*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    for needed in ("scoundrel_core/py.typed", "scoundrel_solver/py.typed",
                   "scoundrel_solver/fair/leaf_model.json", "scoundrel_core/_version.py",
                   "scoundrel_solver/cli/entry.py"):
        assert needed in names
    # /learn's rules: docs/rules.md itself (a link in the source tree), a file in the wheel
    shipped = zipfile.ZipFile(wheel).read("scoundrel_solver/web/rules.md").decode()
    assert shipped == (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    tops = {n.split("/")[0] for n in names}
    assert tops == {"scoundrel_core", "scoundrel_solver", DIST_INFO}
    meta = zipfile.ZipFile(wheel).read(f"{DIST_INFO}/METADATA").decode()
    assert f"Version: {__version__}" in meta
    assert "Requires-Dist: numba" in meta and "Requires-Dist: numpy" in meta
    entry = zipfile.ZipFile(wheel).read(
        f"{DIST_INFO}/entry_points.txt").decode()
    assert "scoundrel-solve = scoundrel_solver.cli.entry:solve_main" in entry


def test_the_sdist_carries_the_readme_and_the_sources(dist: Path) -> None:
    sdist = next(dist.glob("*.tar.gz"))
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert {"README.md", "pyproject.toml", "src/scoundrel_core/_version.py"} <= names
