"""One version, from one source: the packages, the installed metadata and every command."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
import tomllib

import scoundrel_core
import scoundrel_solver
from scoundrel_core._version import __version__

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
DISTRIBUTION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["name"]


def test_both_packages_report_the_one_version() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)
    assert scoundrel_core.__version__ == scoundrel_solver.__version__ == __version__


def test_the_installed_metadata_has_the_same_version() -> None:
    installed = metadata.version(DISTRIBUTION)
    assert installed == __version__, (
        f"the installed metadata says {installed}, the source {__version__}: "
        "reinstall (pip install -e .) after a version change")


def test_pyproject_reads_the_version_from_the_source() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"]
    assert project["project"]["dynamic"] == ["version"]
    attr = project["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "scoundrel_core._version.__version__"


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_every_command_prints_its_version(name: str) -> None:
    module, func = SCRIPTS[name].split(":")
    code = (f"import sys; sys.argv = [{name!r}, '--version']; "
            f"from {module} import {func}; sys.exit({func}())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{name} {__version__}\n"
