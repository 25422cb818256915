"""Shared fixtures."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import scoundrel_core as sc

# A test run started in the background by a shell without job control inherits Ctrl-C
# ignored (SIG_IGN), and so would every command the tests start: the Ctrl-C tests would
# then wait for an interrupt that never comes. Give this process Python's usual handler;
# children started from it begin with Ctrl-C at its default again.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def warm_solver() -> None:
    """Run the solver once per variant so its numba kernels compile before any test times it.

    Request it (``pytestmark = pytest.mark.usefixtures("warm_solver")``) in modules
    that call ``scoundrel_solver.solve``; hypothesis deadlines and benchmarks then
    measure solving, not compiling.
    """
    from scoundrel_solver import solve

    for variant in sc.FLEE_RULES:
        for weapon_rule in sc.WEAPON_RULES:
            small = sc.new_game(
                deck="5C 9D 3H QS 2S 7H", partial=True, variant=variant, weapon_rule=weapon_rule
            )
            solve(small, variant=variant, weapon_rule=weapon_rule)
    solve(0, variant="classic", max_nodes=1000)


SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def load_script(name: str) -> ModuleType:
    """A script of ``scripts/`` imported as a module (they are not a package).

    ``scripts/`` goes on the import path, as when a script is run: the scripts import
    their helpers (``timed``) from beside them."""
    if str(SCRIPTS) not in sys.path:
        sys.path.insert(0, str(SCRIPTS))
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    # registered as imports are, so what looks a module up by name (dataclasses) finds it
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 200 KiB tmpfs to fill: a real full disk (ENOSPC), not a mocked one.

    Needs root (or a user namespace that allows mounts); skipped with the reason otherwise.
    """
    where = tmp_path / "small-disk"
    where.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill_disk(where: Path, leave: int = 0) -> None:
    """Fill the disk at ``where`` until fewer than ``leave`` bytes are free."""
    filler = where / "filler"
    with open(filler, "ab") as f:
        while True:
            free = os.statvfs(where).f_bavail * os.statvfs(where).f_frsize
            if free <= leave:
                return
            try:
                f.write(b"\0" * min(4096, free - leave))
                f.flush()
            except OSError:
                return


def free_disk(where: Path) -> None:
    (where / "filler").unlink(missing_ok=True)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``jax`` run last. Once JAX has computed, its threads make every
    later fork unsafe (it warns of a deadlock), and the kernel workers fork."""
    items.sort(key=lambda item: item.get_closest_marker("jax") is not None)  # stable


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line when the browser tests were skipped (no Chromium, or no Playwright): a
    skip is otherwise easy to miss in the summary's count, and CI=true makes them fail."""
    skipped = [r for r in terminalreporter.stats.get("skipped", [])
               if "test_web_browser.py" in str(getattr(r, "nodeid", ""))
               or "test_web_browser.py" in str(getattr(r, "location", ("",))[0])]
    if skipped:
        reason = str(skipped[0].longrepr[-1]) if isinstance(skipped[0].longrepr, tuple) else ""
        terminalreporter.write_line(
            f"browser tests skipped: {reason.removeprefix('Skipped: ')}; "
            "to run them, install Chromium (apt-get install chromium, or python -m "
            "playwright install chromium) and run pytest tests/test_web_browser.py "
            "(CI=true makes a missing browser fail)")
