"""The commands as a user runs them, in their own process: Ctrl-C, huge ranges, no tracebacks.

Each command starts in a new process group and gets SIGINT the way a terminal
sends it on Ctrl-C (to the whole group, workers included), once it is busy:
a batch once its results file has rows, an evaluation once its progress bar
(on a pseudo-terminal, so it is drawn) has counted games.
"""

from __future__ import annotations

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

    _wait_for(rows_written, proc, "three rows in the results file")
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    err = stderr.decode()
    assert proc.returncode == 130, err
    assert stdout == b"" and "Traceback" not in err
    assert err.count("\n") == 1 and "interrupted" in err and str(out) in err
    saved = int(re.search(r"(\d+) new results saved", err).group(1))  # type: ignore[union-attr]
    rows = [json.loads(line) for line in out.read_text().splitlines()]  # every line whole
    assert len(rows) == saved >= 3
    assert [r["seed"] for r in rows] == list(range(saved))


def _pty_run(argv: list[str], marker: re.Pattern[str], timeout: float = 300) -> tuple[int, str]:
    """Run with stderr on a pseudo-terminal, send Ctrl-C once ``marker`` shows there."""
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
                os.killpg(proc.pid, signal.SIGINT)
                sent = True
            if proc.poll() is not None and not ready:
                break
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
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
