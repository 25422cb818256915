"""benchmarks/compare_revisions.py: a Ctrl-C stops it and its workers quietly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "compare_revisions.py"


def test_bad_block_is_named() -> None:
    out = subprocess.run([sys.executable, str(SCRIPT), "HEAD", "--block", "0"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert "--block 0" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="process groups are POSIX")
def test_ctrl_c_to_the_process_group_stops_every_worker_without_a_traceback() -> None:
    if subprocess.run(["git", "-C", str(SCRIPT.parents[1]), "rev-parse", "HEAD"],
                      capture_output=True).returncode != 0:
        pytest.skip("not a git checkout")
    # a session of its own, as a terminal's foreground job is: killpg reaches the script,
    # the worker compiling its kernels and anything else it started
    proc = subprocess.Popen(
        [sys.executable, str(SCRIPT), "HEAD", "--variant", "easy", "--seeds", "0:100"],
        stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, start_new_session=True)
    assert proc.stderr is not None
    seen = []
    for line in proc.stderr:  # interrupt once the first worker is being started
        seen.append(line)
        if line.startswith("compiling both sides"):
            break
    else:
        pytest.fail(f"the script ended before starting its workers: {''.join(seen)}")
    time.sleep(1.0)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "interrupted, nothing saved" in err
    assert "Traceback" not in err
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):  # no process of the group is left
        os.killpg(proc.pid, 0)
