"""A stop reaches a run whose work sits in compiled code (issue 39, item 3).

A fair agent with a node budget of 10**9 on the easy variant searches for
minutes per decision inside a numba kernel, where Python runs no signal
handler; before, only SIGKILL stopped ``scoundrel-eval``. Each command here
runs in its own process group and gets the signals a terminal or a service
manager sends to the whole group: Ctrl-C twice, or SIGTERM once. It must end
within a few seconds, with the usual one line and exit code, keep every row
finished before the signal, and leave no process of its group behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import scoundrel_core as sc
import scoundrel_solver
from scoundrel_solver.fair.config import MAX_NODE_BUDGET
from scoundrel_solver.runs.eval_rows import eval_row
from scoundrel_solver.runs.summary import Outcome

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="needs /proc to see a process group")

SRC = Path(scoundrel_solver.__file__).resolve().parents[1]
STOP_WITHIN = 5.0
"""Seconds from the signal to the end of the command (it takes well under one; the rest is
room for a loaded machine)."""

# Minutes of compiled search per decision: the deepest search at every decision.
LONG_GAME = ["--agent", "fair", "--variant", "easy", "--budget", str(MAX_NODE_BUDGET),
             "--shallow-above", "44", "--quiet"]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    return env


def _stat(pid: int | str) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _group(pgid: int) -> list[int]:
    """The live processes of the process group ``pgid`` (zombies are not live)."""
    found = []
    for entry in Path("/proc").iterdir():
        fields = _stat(entry.name) if entry.name.isdigit() else None
        if fields is not None and int(fields[2]) == pgid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def _cpu_seconds(pid: int) -> float:
    fields = _stat(pid)
    if fields is None:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def _session(argv: list[str]) -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen([sys.executable, "-m", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_env(), start_new_session=True)
    try:
        yield proc
    finally:
        for _ in range(50):  # whatever a failed test left
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            if not _group(proc.pid):
                break
            time.sleep(0.02)
        if proc.poll() is None:
            proc.wait(timeout=30)


def _wait_until(ready: Callable[[], bool], proc: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + 300  # a fresh tree compiles the kernels first
    while not ready():
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            pytest.fail(f"the command ended ({proc.returncode}) before {what}: {err[-2000:]}")
        if time.monotonic() > deadline:
            pytest.fail(f"no {what} in 300 s")
        time.sleep(0.05)


def _stop(proc: subprocess.Popen[bytes], signals: list[int]) -> tuple[float, str]:
    """Send ``signals`` to the group (0.3 s apart); the seconds until the command ended
    after the last of them, and what it wrote on stderr."""
    for i, sig in enumerate(signals):
        if i:
            time.sleep(0.3)
        os.killpg(proc.pid, sig)
    sent = time.monotonic()
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running 60 s after {[signal.Signals(s).name for s in signals]}")
    took = time.monotonic() - sent
    until = time.monotonic() + 2  # the group was emptied before the exit; a moment of slack
    while _group(proc.pid) and time.monotonic() < until:
        time.sleep(0.05)
    assert not _group(proc.pid), f"processes left behind: {_group(proc.pid)}"
    return took, err.decode()


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err[-2000:]
    return lines[0]


def _busy_worker(proc: subprocess.Popen[bytes], cpu: float = 3.0) -> Callable[[], bool]:
    """Ready once a worker of ``proc`` has spent ``cpu`` seconds (loading its kernels,
    then searching): the main process is then waiting on compiled work."""
    def ready() -> bool:
        return any(_cpu_seconds(p) >= cpu for p in _group(proc.pid) if p != proc.pid)
    return ready


STOPS = [([signal.SIGINT, signal.SIGINT], 130, "interrupted"),
         ([signal.SIGTERM], 143, "stopped by SIGTERM")]


@pytest.mark.parametrize(("signals", "code", "how"), STOPS, ids=["ctrl-c-twice", "sigterm"])
def test_an_evaluation_searching_for_minutes_stops_at_once(
    signals: list[int], code: int, how: str, tmp_path: Path
) -> None:
    out = tmp_path / "e.jsonl"
    opts = {"node_budget": MAX_NODE_BUDGET, "shallow_above": 44}
    variant = sc.get_variant("easy")
    # Two games finished by an earlier run of the same command: the run resumes after them.
    kept = [json.dumps(eval_row("fair", opts, variant, seed, Outcome(-20, False, 300.0, True,
                                                                        0, 30, 30)))
            for seed in (0, 1)]
    out.write_text("".join(line + "\n" for line in kept))
    with _session(["scoundrel_solver.cli.eval", *LONG_GAME, "--seeds", "0:4",
                   "--out", str(out)]) as proc:
        _wait_until(_busy_worker(proc), proc, "a busy worker")
        took, err = _stop(proc, signals)
    assert proc.returncode == code, err
    line = _one_line(err)
    assert line.startswith(f"scoundrel-eval: {how}; 0 new games saved in {out}"), line
    assert took < STOP_WITHIN, f"{took:.1f} s to stop"
    assert out.read_text().splitlines() == kept


@pytest.mark.parametrize(("signals", "code", "how"), STOPS, ids=["ctrl-c-twice", "sigterm"])
def test_a_batch_stops_at_once_keeping_its_rows(
    signals: list[int], code: int, how: str, tmp_path: Path
) -> None:
    """A batch's first Ctrl-C waits for the deal being solved; a second one, or SIGTERM,
    does not (a deal under --max-seconds 1e9 may take that long)."""
    out = tmp_path / "r.jsonl"
    with _session(["scoundrel_solver.cli.solve", "--seeds", f"0:{2**64}", "--variant", "hard",
                   "--max-seconds", "1e9", "--quiet", "--out", str(out)]) as proc:
        _wait_until(lambda: out.exists() and out.read_bytes().count(b"\n") >= 3, proc,
                    "three rows")
        took, err = _stop(proc, signals)
    assert proc.returncode == code, err
    line = _one_line(err)
    assert line.startswith(f"scoundrel-solve: {how}; "), line
    saved = int(re.search(r"(\d+) new results saved", line).group(1))  # type: ignore[union-attr]
    rows = [json.loads(row) for row in out.read_text().splitlines()]  # every line whole
    assert len(rows) == saved >= 3
    assert [r["seed"] for r in rows] == list(range(saved))
    assert took < STOP_WITHIN, f"{took:.1f} s to stop"



# --- what an option may ask: every budget and limit has a bound, told in one line ----------

@pytest.mark.parametrize(("module", "argv", "needle"), [
    ("eval", ["--budget", str(10**23)], "argument --budget: '1000"),
    ("eval", ["--budget", "9" * 5000], "argument --budget: "),
    ("eval", ["--depth", "49"], "argument --depth: '49' is not an integer 0..48"),
    ("eval", ["--shallow-above", "45"], "argument --shallow-above: '45' is not an integer 0..44"),
    ("eval", ["--endgame", "45"], "argument --endgame: '45' is not an integer 0..44"),
    ("eval", ["--agent", "pimc", "--samples", "10001"], "'10001' is not an integer 1..10,000"),
    ("eval", ["--jobs", "257"], "more worker processes than 256"),
    ("solve", ["--max-nodes", str(2**63)], "--max-nodes"),
    ("solve", ["--max-seconds", "inf"], "--max-seconds"),
    ("solve", ["--table-mib", str(10**12)], "--table-mib"),
    ("census", ["run", "--seeds", "0:9", "--max-seconds", "1e999"], "--max-seconds"),
    ("census", ["run", "--seeds", "0:9", "--chunk-size", "100001"], "--chunk-size"),
    ("web", ["--request-seconds", "inf"], "--request-seconds"),
    ("web", ["--queue", "10001"], "--queue"),
])
def test_every_budget_and_limit_has_a_bound_told_in_one_line(
    module: str, argv: list[str], needle: str, tmp_path: Path
) -> None:
    if module == "census":
        argv = [*argv, "--db", str(tmp_path / "c.sqlite")]
    if module == "eval":
        argv = [*argv, "--seeds", "0:1"]
    r = subprocess.run([sys.executable, "-m", f"scoundrel_solver.cli.{module}", *argv],
                       capture_output=True, text=True, timeout=60, env=_env(), cwd=tmp_path)
    assert r.returncode == 2, r.stderr[-2000:]
    line = _one_line(r.stderr)
    assert needle in line and len(line) < 300, line
    assert not (tmp_path / "c.sqlite").exists()


def test_a_game_with_a_hint_worker_stops_at_sigterm_leaving_nothing(tmp_path: Path) -> None:
    """scoundrel-play's hints search in the session's worker: SIGTERM during or after a
    hint ends the game with its record written, and the worker with it."""
    record = tmp_path / "g.json"
    proc = subprocess.Popen([sys.executable, "-m", "scoundrel_solver.cli.play", "--seed", "3",
                             "--record", str(record)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(),
                            start_new_session=True)
    try:
        assert proc.stdin is not None
        proc.stdin.write(b"1\nhint\n")
        proc.stdin.flush()
        assert proc.stdout is not None
        os.set_blocking(proc.stdout.fileno(), False)
        said: list[bytes] = []

        def hinted() -> bool:
            said.append(proc.stdout.read() or b"" if proc.stdout else b"")
            return b"Fair agent" in b"".join(said) and len(_group(proc.pid)) > 1
        _wait_until(hinted, proc, "a hint from its worker")
        took, err = _stop(proc, [signal.SIGTERM])
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == 143, err
    line = _one_line(err)
    assert line.startswith("scoundrel-play: stopped by SIGTERM after 1 action; record written"), \
        line
    assert json.loads(record.read_text())["line"] == "3C/f"
    assert took < STOP_WITHIN, f"{took:.1f} s to stop"


# --- the worker itself ----------------------------------------------------------------------

class _Odd(ValueError):
    def __init__(self, a: int, b: int) -> None:  # two arguments: does not unpickle
        super().__init__(f"odd {a} {b}")


def _double_or_fail(x: int) -> int:
    if x == -1:
        raise sc.SeedError("bad seed -1")
    if x == -2:
        raise _Odd(1, 2)
    if x == -3:
        os.kill(os.getpid(), signal.SIGKILL)
    return 2 * x


def test_the_worker_gives_results_in_order_and_raises_what_the_work_raised() -> None:
    from scoundrel_solver.runs.workers import KernelWorker, WorkerDied, in_worker

    with KernelWorker(_double_or_fail, ahead=3) as worker:
        assert list(worker.map(range(50))) == [2 * x for x in range(50)]
        with pytest.raises(sc.SeedError, match="bad seed -1"):
            list(worker.map([1, 2, -1, 4]))
        assert worker.call(5) == 10  # a failure closed the worker; the next call forks anew
        with pytest.raises(ValueError, match="odd 1 2"):
            worker.call(-2)
        with pytest.raises(WorkerDied):
            worker.call(-3)
        pid = os.getpid()
        assert worker.call(7) == 14 and os.getpid() == pid
    assert in_worker(_double_or_fail, 21) == 42


def test_a_worker_left_open_does_not_hold_the_exit() -> None:
    """multiprocessing's exit would send it SIGTERM, which it ignores, and wait forever."""
    code = ("from scoundrel_solver.runs.workers import KernelWorker\n"
            "w = KernelWorker(abs)\n"
            "print(w.call(-3), w._proc.pid)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=30, env=_env())
    assert r.returncode == 0, r.stderr[-2000:]
    value, pid = r.stdout.split()
    assert value == "3"
    assert _stat(pid) is None or _stat(pid)[0] == "Z"  # type: ignore[index]


def test_a_killed_worker_of_one_job_stops_the_evaluation_with_one_line(tmp_path: Path) -> None:
    """The OOM killer takes the one worker of --jobs 1: exit 1, one line, games kept."""
    out = tmp_path / "e.jsonl"
    with _session(["scoundrel_solver.cli.eval", "--agent", "random", "--seeds", f"0:{2**64}",
                   "--quiet", "--out", str(out)]) as proc:
        _wait_until(lambda: out.exists() and out.read_bytes().count(b"\n") >= 20, proc,
                    "twenty games")
        workers = [p for p in _group(proc.pid) if p != proc.pid]
        assert len(workers) == 1, workers
        os.kill(workers[0], signal.SIGKILL)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, err.decode()
    line = _one_line(err.decode())
    assert line.startswith("scoundrel-eval: error: a worker process died"), line
    saved = int(re.search(r"; (\d+) new games saved", line).group(1))  # type: ignore[union-attr]
    assert len(out.read_text().splitlines()) == saved >= 20


def test_a_killed_worker_of_a_batch_stops_it_with_one_line(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    with _session(["scoundrel_solver.cli.solve", "--seeds", f"0:{2**64}", "--variant", "hard",
                   "--quiet", "--out", str(out)]) as proc:
        _wait_until(lambda: out.exists() and out.read_bytes().count(b"\n") >= 5, proc,
                    "five rows")
        workers = [p for p in _group(proc.pid) if p != proc.pid]
        assert len(workers) == 1, workers
        os.kill(workers[0], signal.SIGKILL)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, err.decode()
    line = _one_line(err.decode())
    assert line.startswith("scoundrel-solve: error: a worker process died"), line
    saved = int(re.search(r"; (\d+) new results saved", line).group(1))  # type: ignore[union-attr]
    assert len(out.read_text().splitlines()) == saved >= 5
