"""Worker processes as a user meets them: a count past the bound is refused before any
starts, and workers end when their parent is killed outright (issue 39, items 1 and 2).

Every command runs in its own session, so its process group holds the command, its
workers and the multiprocessing resource tracker, and nothing else; what is left of
the group is killed at the end whatever happens. The refusal tests watch the group
while the command runs and kill it at the first worker, so a regression cannot start
thousands of processes.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import scoundrel_solver
from scoundrel_solver.runs.workers import MAX_WORKERS, check_workers

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="needs /proc to see a process group")

SRC = Path(scoundrel_solver.__file__).resolve().parents[1]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    return env


def _command(module: str, *argv: str) -> list[str]:
    return [sys.executable, "-m", f"scoundrel_solver.cli.{module}", *argv]


def _group(pgid: int) -> list[int]:
    """Every live process of the process group ``pgid`` (zombies are not live)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


@contextlib.contextmanager
def _session(argv: list[str], **kw: object) -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(),
                            start_new_session=True, **kw)  # type: ignore[call-overload]
    try:
        yield proc
    finally:
        for _ in range(50):  # a fork caught mid-way may appear after a first kill
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            if not _group(proc.pid):
                break
            time.sleep(0.02)
        if proc.poll() is None:
            proc.wait(timeout=30)


def _refused_before_any_worker(argv: list[str]) -> tuple[int, str]:
    """Run ``argv``; fail (after killing the group) as soon as it has a second process."""
    with _session(argv) as proc:
        deadline = time.monotonic() + 60
        while proc.poll() is None:
            others = [p for p in _group(proc.pid) if p != proc.pid]
            if others:
                os.killpg(proc.pid, signal.SIGKILL)
                pytest.fail(f"{argv[2]} started {len(others)} processes before refusing")
            if time.monotonic() > deadline:
                pytest.fail(f"{argv[2]} neither refused nor ended in 60 s")
            time.sleep(0.005)
        err = proc.stderr.read().decode() if proc.stderr else ""
        return proc.returncode, err


@pytest.mark.parametrize(("module", "argv"), [
    ("eval", ["--agent", "random", "--seeds", "0:10", "--jobs", "100000"]),
    ("eval", ["--agent", "random", "--seeds", "0:10", "--jobs", str(MAX_WORKERS + 1)]),
    ("web", ["--port", "0", "--workers", "100000000"]),
    ("census", ["run", "--seeds", "0:10", "--workers", "99999", "--db", "{db}"]),
])
def test_a_worker_count_past_the_bound_is_refused_before_any_starts(
    module: str, argv: list[str], tmp_path: Path
) -> None:
    argv = [a.replace("{db}", str(tmp_path / "c.sqlite")) for a in argv]
    code, err = _refused_before_any_worker(_command(module, *argv))
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert f"more worker processes than {MAX_WORKERS}" in lines[0], lines
    assert "--jobs" in lines[0] or "--workers" in lines[0], lines
    assert not (tmp_path / "c.sqlite").exists()  # nothing made before the refusal


def test_the_bound_is_one_number() -> None:
    assert check_workers(MAX_WORKERS, "--jobs") == MAX_WORKERS
    for bad in (0, MAX_WORKERS + 1, 10**30):
        with pytest.raises(ValueError, match="--jobs"):
            check_workers(bad, "--jobs")


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def _kill_the_parent_then_wait(proc: subprocess.Popen[bytes], ready: Callable[[], bool],
                               what: str) -> None:
    """Once ``ready()``, SIGKILL the main process alone: its whole group must end soon."""
    deadline = time.monotonic() + 300  # a fresh tree compiles the kernels first
    while not ready():
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            pytest.fail(f"the command ended ({proc.returncode}) before {what}: {err[-2000:]}")
        if time.monotonic() > deadline:
            pytest.fail(f"no {what} in 300 s")
        time.sleep(0.1)
    left = [p for p in _group(proc.pid) if p != proc.pid]
    assert left, "no worker processes to outlive the parent"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    until = time.monotonic() + 15
    while _group(proc.pid) and time.monotonic() < until:
        time.sleep(0.1)
    orphans = _group(proc.pid)
    cmdlines = []
    for p in orphans:
        with contextlib.suppress(OSError):
            cmdlines.append(Path(f"/proc/{p}/cmdline").read_bytes().replace(b"\0", b" ")[:200])
    assert not orphans, f"{len(orphans)} processes outlived their parent: {cmdlines}"


def _has_workers(proc: subprocess.Popen[bytes], n: int) -> Callable[[], bool]:
    def ready() -> bool:
        return len(_children(proc.pid)) >= n
    return ready


def test_eval_workers_end_when_the_main_process_is_killed() -> None:
    argv = _command("eval", "--agent", "random", "--seeds", f"0:{2**64}", "--jobs", "2",
                    "--quiet")
    with _session(argv) as proc:
        # two workers and the resource tracker, then some games played (workers set up)
        started = time.monotonic()

        def busy() -> bool:
            return len(_children(proc.pid)) >= 3 and time.monotonic() - started > 5
        _kill_the_parent_then_wait(proc, busy, "workers")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_web_workers_end_when_the_server_is_killed() -> None:
    argv = _command("web", "--port", str(_free_port()), "--workers", "2")
    with _session(argv) as proc:
        assert proc.stdout is not None
        os.set_blocking(proc.stdout.fileno(), False)
        said: list[bytes] = []

        def up() -> bool:
            chunk = proc.stdout.read() if proc.stdout else None
            if chunk:
                said.append(chunk)
            return b"ready on" in b"".join(said)
        _kill_the_parent_then_wait(proc, up, "'ready on' line")


def test_census_workers_end_when_the_client_is_killed(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    db = tmp_path / "c.sqlite"
    argv = _command("census", "run", "--seeds", "0:100000", "--variant", "hard",
                    "--workers", "2", "--db", str(db), "--quiet")
    with _session(argv) as proc:
        def rows() -> bool:
            import sqlite3

            if not db.exists():
                return False
            try:
                with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as c:
                    n: int = c.execute("SELECT count(*) FROM results").fetchone()[0]
            except sqlite3.Error:
                return False
            return n > 0
        _kill_the_parent_then_wait(proc, rows, "rows in the store")
