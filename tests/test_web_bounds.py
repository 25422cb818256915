"""scoundrel-web as a hostile client meets it, on a real server on 127.0.0.1 (issue 39,
items 4, 6 and the port of 17): what one request may cost as a whole, work whose client
left, the request head's size and time, and a port in use.

The server runs with one worker, so a request that held it would show at once as a
hint left waiting; every wait is bounded, so a regression fails instead of hanging.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")

import scoundrel_solver

SRC = Path(scoundrel_solver.__file__).resolve().parents[1]
REQUEST_SECONDS = 3
FLEES_PAST_THE_CAP = ",".join(["flee"] * 1600)  # an 8 KB query, 1,600 decisions
FLEES_UNDER_THE_CAP = ",".join(["flee"] * 300)  # seconds of a worker's time, at the bound


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(SRC)}


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int, subprocess.Popen[bytes]]]:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "scoundrel_solver.cli.web", "--port", str(port), "--workers",
         "1", "--max-seconds", "2", "--request-seconds", str(REQUEST_SECONDS)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_env(), start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while True:
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                pytest.fail(f"scoundrel-web exited with {proc.returncode}: {err}")
            with (contextlib.suppress(OSError),
                  urllib.request.urlopen(f"{base}/api/health", timeout=2) as r):
                if r.status == 200:
                    break
            if time.monotonic() > deadline:
                pytest.fail("scoundrel-web was not ready in 300 s")
            time.sleep(0.3)
        yield base, port, proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        if os.environ.get("SHOW_SERVER"):
            print(proc.stderr.read().decode() if proc.stderr else "")


def _get(url: str, timeout: float) -> tuple[int, dict[str, object] | str, float]:
    t = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            status, body = r.status, r.read()
    except urllib.error.HTTPError as err:
        status, body = err.code, err.read()
    text = body.decode()
    try:
        return status, json.loads(text), time.monotonic() - t
    except ValueError:
        return status, text, time.monotonic() - t


def _hint_is_prompt(base: str, seed: int, within: float = 2.5) -> None:
    """The one worker is free: a hint (a hundredth of a second of work) answers at once."""
    status, body, took = _get(f"{base}/api/hint?seed={seed}&variant=easy", timeout=30)
    assert status == 200, body
    assert took < within, f"a hint took {took:.1f} s: the worker was still busy"


def test_a_review_of_too_many_decisions_is_refused_at_once(server: tuple[str, int, object]) -> None:
    base = server[0]
    for path in ("/api/review", "/review"):
        status, body, took = _get(f"{base}{path}?seed=7&variant=easy&line={FLEES_PAST_THE_CAP}",
                                  timeout=30)
        assert status == 413, body
        assert took < 5
        text = body["error"] if isinstance(body, dict) else body
        assert "1,600 decisions" in str(text) and "at most 300" in str(text), text
    _hint_is_prompt(base, 11)


def test_a_review_past_the_request_cap_is_stopped_with_503(
    server: tuple[str, int, object]
) -> None:
    base = server[0]
    status, body, took = _get(f"{base}/api/review?seed=7&variant=easy&line={FLEES_UNDER_THE_CAP}",
                              timeout=60)
    assert status == 503, body
    assert took < REQUEST_SECONDS + 3, took
    assert isinstance(body, dict)
    assert f"more than {REQUEST_SECONDS} s of the server's work" in str(body["error"]), body
    _hint_is_prompt(base, 12)


def test_a_review_whose_client_left_is_stopped(server: tuple[str, int, object]) -> None:
    base, port = server[0], server[1]
    for seed in (31, 32):  # the case: two requests dropped by their clients
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(f"GET /api/review?seed={seed}&variant=easy&line={FLEES_UNDER_THE_CAP} "
                      "HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            time.sleep(0.5)  # well inside the request cap: only the leaving stops them
    time.sleep(0.3)
    # Before the request cap could have stopped the first review (3 s after it began).
    _hint_is_prompt(base, 13, within=1.0)


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the server's RSS")
def test_a_huge_header_is_refused_without_growing_the_server(
    server: tuple[str, int, subprocess.Popen[bytes]]
) -> None:
    base, port, proc = server
    before = _rss_kib(proc.pid)
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
        sent, reply = 0, b""
        try:
            while sent < 64 << 20:  # 64 MiB offered; the server must stop reading long before
                s.sendall(b"a" * (1 << 16))
                sent += 1 << 16
        except OSError:
            pass  # the server closed the connection: what we want
        with contextlib.suppress(OSError):
            reply = s.recv(1000)
    assert sent < 64 << 20, "the server took a 64 MiB header"
    assert reply == b"" or reply.startswith(b"HTTP/1.1 400"), reply
    assert _rss_kib(proc.pid) - before < 20_000, "the server grew by more than 20 MB"
    status, _, _ = _get(f"{base}/api/health", timeout=10)
    assert status == 200


def test_a_client_trickling_its_headers_is_cut_off(server: tuple[str, int, object]) -> None:
    from scoundrel_solver.web.server import HEAD_SECONDS

    port = server[1]
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.settimeout(1.0)
        start = time.monotonic()
        closed = False
        s.sendall(b"GET /api/health HTTP/1.1\r\n")
        while time.monotonic() - start < HEAD_SECONDS + 10:
            try:
                s.sendall(b"X: y\r\n")
                if s.recv(100) == b"":
                    closed = True
                    break
            except TimeoutError:
                continue
            except OSError:
                closed = True
                break
        took = time.monotonic() - start
    assert closed, f"a trickling client was held for {took:.0f} s"
    assert took < HEAD_SECONDS + 3, took


def test_a_port_in_use_is_one_line_and_exit_1(server: tuple[str, int, object]) -> None:
    port = server[1]
    t = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "scoundrel_solver.cli.web", "--port", str(port),
                        "--workers", "1"], capture_output=True, text=True, env=_env(),
                       timeout=120)
    assert r.returncode == 1, r.stderr
    lines = r.stderr.strip().splitlines()
    assert lines == [f"scoundrel-web: error: cannot listen on 127.0.0.1:{port}: "
                     "address already in use"], r.stderr
    assert time.monotonic() - t < 30  # refused before any worker started and compiled
