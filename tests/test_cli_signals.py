"""The commands as a user runs them, in their own process: Ctrl-C, huge ranges, no tracebacks.

Each command starts in a new process group and gets SIGINT the way a terminal
sends it on Ctrl-C (to the whole group, workers included), once it is busy:
a batch once its results file has rows, an evaluation once its progress bar
(on a pseudo-terminal, so it is drawn) has counted games.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import scoundrel_solver

SRC = Path(scoundrel_solver.__file__).resolve().parents[1]
ALL_SEEDS = f"0:{2**64}"


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    return env


def _command(module: str, *argv: str) -> list[str]:
    return [sys.executable, "-m", f"scoundrel_solver.cli.{module}", *argv]


def _reap(proc: subprocess.Popen[bytes]) -> None:
    """Kill what is left of ``proc``'s process group (its own session): a failed test must
    not leave a run of ``--seeds 0:2**64`` or its workers behind."""
    with contextlib.suppress(ProcessLookupError, PermissionError):  # the group is gone
        os.killpg(proc.pid, signal.SIGKILL)
    if proc.poll() is None:
        proc.wait(timeout=60)


def _wait_for(ready: Callable[[], bool], proc: subprocess.Popen[bytes], what: str,
              timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        if proc.poll() is not None:
            raise AssertionError(f"the command ended (code {proc.returncode}) before {what}")
        if time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"no {what} after {timeout} s")
        time.sleep(0.05)


def test_ctrl_c_stops_a_whole_seed_space_batch_keeping_whole_rows(tmp_path: Path) -> None:
    """Item 5 and 13: 0:2**64 starts at once (no list of the range); Ctrl-C -> 130, one line."""
    out = tmp_path / "r.jsonl"
    proc = subprocess.Popen(
        _command("solve", "--seeds", ALL_SEEDS, "--variant", "hard", "--out", str(out)),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(), start_new_session=True,
    )

    def rows_written() -> bool:
        return out.exists() and out.read_bytes().count(b"\n") >= 3

    try:
        _wait_for(rows_written, proc, "three rows in the results file")
        os.killpg(proc.pid, signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        _reap(proc)
    err = stderr.decode()
    assert proc.returncode == 130, err
    assert stdout == b"" and "Traceback" not in err
    assert err.count("\n") == 1 and "interrupted" in err and str(out) in err
    saved = int(re.search(r"(\d+) new results saved", err).group(1))  # type: ignore[union-attr]
    rows = [json.loads(line) for line in out.read_text().splitlines()]  # every line whole
    assert len(rows) == saved >= 3
    assert [r["seed"] for r in rows] == list(range(saved))


def _pty_run(argv: list[str], marker: re.Pattern[str], timeout: float = 300,
             sig: int = signal.SIGINT,
             act: Callable[[subprocess.Popen[bytes]], None] | None = None) -> tuple[int, str]:
    """Run with stderr on a pseudo-terminal, send ``sig`` (Ctrl-C) to the process group once
    ``marker`` shows there (or do ``act`` to the process instead)."""
    master, slave = pty.openpty()
    # A terminal of 24 rows by 100 columns: tqdm draws nothing on one of width 0.
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=slave, env=_env(), start_new_session=True)
    os.close(slave)
    seen = b""
    sent = False
    deadline = time.monotonic() + timeout
    try:
        while True:
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; the terminal shows {seen[-2000:]!r}")
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: every writer of the terminal has closed it
                    chunk = b""
                if not chunk:
                    break
                seen += chunk
            if not sent and marker.search(seen.decode(errors="replace")):
                if act is not None:
                    act(proc)
                else:
                    os.killpg(proc.pid, sig)
                sent = True
            if proc.poll() is not None and not ready:
                break
    finally:
        os.close(master)
        _reap(proc)
    assert sent, f"the command ended before {marker.pattern!r}: {seen[-2000:]!r}"
    return proc.wait(timeout=60), seen.decode(errors="replace")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_an_evaluation_workers_included(jobs: str) -> None:
    """Item 13 (scoundrel-eval, also with worker processes): 130, one line, no traceback."""
    code, terminal = _pty_run(
        _command("eval", "--agent", "random", "--seeds", ALL_SEEDS, "--jobs", jobs),
        re.compile(r"\b(?:[1-9]\d*)/" + str(2**64)),
    )
    assert code == 130, terminal
    assert "Traceback" not in terminal and "KeyboardInterrupt" not in terminal
    last = terminal.replace("\r", "\n").strip().splitlines()[-1]
    assert last.startswith("scoundrel-eval: interrupted; nothing saved"), terminal[-2000:]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_stop_an_evaluation_without_worker_tracebacks(sig: int) -> None:
    code, terminal = _pty_run(
        _command("eval", "--agent", "random", "--seeds", ALL_SEEDS, "--jobs", "2"),
        re.compile(r"\b(?:[1-9]\d*)/" + str(2**64)), sig=sig,
    )
    assert code == 128 + sig, terminal
    assert "Traceback" not in terminal and "Error" not in terminal, terminal[-2000:]
    last = terminal.replace("\r", "\n").strip().splitlines()[-1]
    assert last.startswith(f"scoundrel-eval: stopped by {signal.Signals(sig).name}; "), last


def _workers(pid: int) -> list[int]:
    """The pool's worker processes among the children of ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid and b"spawn_main" in cmdline:
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find workers")
def test_a_killed_worker_stops_the_evaluation_with_one_line() -> None:
    """The OOM killer takes a worker: the run stops (no hang), one line, exit 1."""
    def kill_one_worker(proc: subprocess.Popen[bytes]) -> None:
        workers = _workers(proc.pid)
        assert workers, "no worker processes found"
        os.kill(workers[0], signal.SIGKILL)

    code, terminal = _pty_run(
        _command("eval", "--agent", "random", "--seeds", ALL_SEEDS, "--jobs", "2"),
        re.compile(r"\b(?:[1-9]\d*)/" + str(2**64)), act=kill_one_worker, timeout=120,
    )
    assert code == 1, terminal[-2000:]
    assert "Traceback" not in terminal
    last = terminal.replace("\r", "\n").strip().splitlines()[-1]
    assert last.startswith("scoundrel-eval: error: a worker process died"), last
    assert re.search(r"nothing saved \(--out FILE keeps every game\); \d+ were played", last), last
