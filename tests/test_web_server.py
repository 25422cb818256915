"""scoundrel-web as a visitor meets it: a real server on 127.0.0.1 with a damaged census
file, forged Host headers and trailing slashes."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("pyarrow")

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _get(port: int, path: str, host: str | None = None) -> tuple[int, dict[str, str], str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.putrequest("GET", path, skip_host=host is not None)
        if host is not None:
            conn.putheader("Host", host)
        conn.endheaders()
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read().decode()
    finally:
        conn.close()


@pytest.fixture(scope="module", params=["garbage", "wrong-columns"])
def served(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[tuple[int, Path, subprocess.Popen[str]]]:
    """A server whose --data holds a census.parquet that does not read: random bytes, or a
    Parquet file without the census's columns (and a fair-games.parquet of random bytes)."""
    data = tmp_path_factory.mktemp("secret-data-folder")
    if request.param == "garbage":
        (data / "census.parquet").write_bytes(os.urandom(4096))
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.table({"variant": ["classic"], "best_score": ["high"]}),
                       data / "census.parquet")
    (data / "fair-games.parquet").write_bytes(b"PAR1" + os.urandom(100))
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "scoundrel_solver.cli.web", "--port", str(port), "--workers",
         "1", "--max-seconds", "2", "--data", str(data)],
        env={**os.environ, "PYTHONPATH": SRC}, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None:
                pytest.fail(f"scoundrel-web exited with {proc.returncode}: "
                            f"{proc.stderr.read() if proc.stderr else ''}")
            try:
                if _get(port, "/api/health")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("scoundrel-web did not become ready in 180 s")
            time.sleep(0.3)
        yield port, data, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_an_unreadable_census_file_is_reported_and_the_game_served(
    served: tuple[int, Path, subprocess.Popen[str]],
) -> None:
    port, data, _ = served
    status, _, page = _get(port, "/census")
    assert status == 200
    assert "census.parquet) on this server is unreadable" in page
    status, _, body = _get(port, "/api/census")
    assert status == 200 and "unreadable" in body
    assert _get(port, "/")[0] == 200
    status, _, game = _get(port, "/play?seed=42&variant=classic&weapon_rule=strict")
    assert status == 200 and "room" in game.lower()
    for path in ("/census", "/api/census", "/"):  # the server's folders stay its own
        assert str(data) not in _get(port, path)[2] and data.name not in _get(port, path)[2]


@pytest.mark.parametrize("path", ["/census/", "/play/?seed=3", "//evil.example/",
                                  "/\\evil.example/", "/%5Cevil.example/"])
def test_a_forged_host_does_not_choose_where_a_redirect_points(
    served: tuple[int, Path, subprocess.Popen[str]], path: str,
) -> None:
    port = served[0]
    status, headers, _ = _get(port, path, host="evil.example")
    assert status == 307
    where = headers["location"]
    # a path of this site: never another host (//host, or /\host that browsers read so)
    assert where.startswith("/") and not where.startswith("//"), where
    assert "\\" not in where and "://" not in where
    assert headers["content-security-policy"].startswith("default-src 'none'")
    if path.startswith("/census"):
        assert where == "/census" and _get(port, where, host="evil.example")[0] == 200
