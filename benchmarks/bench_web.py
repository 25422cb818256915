"""Load on scoundrel-web: many simulated players over 127.0.0.1, measured from the client.

    python benchmarks/bench_web.py [--seconds 600] [--players 50] [--ranked 20]
                                   [--analysts 5] [--greedy] [--workers 2]
                                   [--out results.json]
    python benchmarks/bench_web.py --report results.json   # the report of a saved run

The script starts ``scoundrel-web`` as a subprocess (its own port), then runs,
at the same time, on one asyncio client:

- ``--players`` players, each making one move a second (a ``GET /play`` page
  of the new position, as the browser does) and asking a hint
  (``GET /api/hint``) every fifth move; a finished game starts a new seed.
  Moves are chosen at random among the legal ones (the client knows the deal,
  as the browser's URL does);
- ``--ranked`` players of the ranked daily, each submitting a move a second
  (``POST /api/ranked/move``, an action chosen at random among the legal ones it
  was shown) and reading the day's leaderboard (``GET /api/leaderboard``) every
  fifth move; a finished game starts again as a new player (a new cookie);
- ``--analysts`` players each asking an exact analysis of a fresh classic deal
  (``GET /api/solve?seed=...``) every two seconds;
- with ``--greedy``, one client asking ``/api/health`` ``--greedy-rate`` times a
  second (default 60, three times the server's default per-client limit of 20):
  its answers are counted apart (how many were 429), and the others' latency
  shows whether it slowed them. It runs on the same event loop as the others,
  so its own cost shows in their client-side latency too.

Each simulated client has its own address: the server trusts 127.0.0.1 as a
proxy (``--forwarded-allow-ips``) and every client sends its own
``X-Forwarded-For``, so the per-client rate limit (the server's default) counts
each apart, as it would real players behind a reverse proxy.

It reports requests/s, p50/p95/p99 latency per endpoint, errors (any answer
but 200, or no answer) and the resident memory of the server and its workers
sampled every 10 s, with ``uptime``'s load beside each sample (the machine is
shared). Latency is measured in the client, so it includes the client's own
event loop on the same cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil

import scoundrel_core as sc

ROOT = Path(__file__).resolve().parents[1]
# p95 seconds, from the issues
TARGETS = {"move": 0.050, "hint": 0.300, "solve": 2.0, "ranked_move": 0.050,
           "ranked_start": 0.100, "leaderboard": 0.100}


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: dict[str, list[str]] = field(default_factory=dict)

    def add(self, name: str, seconds: float, error: str | None) -> None:
        self.latencies.setdefault(name, []).append(seconds)
        self.errors.setdefault(name, [])
        if error is not None:
            self.errors[name].append(error)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


async def timed(client: httpx.AsyncClient, stats: Stats, name: str, url: str,
                who: str = "", form: dict[str, str] | None = None,
                cookie: str | None = None, ok: int = 200) -> httpx.Response | None:
    """One request, timed; ``who`` is the client's address (X-Forwarded-For), ``form`` makes
    it a POST."""
    headers = {"x-forwarded-for": who} if who else {}
    if cookie is not None:
        headers["cookie"] = cookie
    t = time.perf_counter()
    error = None
    r = None
    try:
        if form is None:
            r = await client.get(url, headers=headers)
        else:
            r = await client.post(url, data=form, headers=headers)
        await r.aread()
        if r.status_code != ok:
            error = f"{r.status_code}: {r.text[:120]}"
    except httpx.HTTPError as err:
        error = f"{type(err).__name__}: {err}"
    stats.add(name, time.perf_counter() - t, error)
    return r if error is None else None


def address(i: int) -> str:
    """The i-th simulated client's address (a private 10.x one)."""
    return f"10.{i // 65536 % 256}.{i // 256 % 256}.{i % 256}"


async def ranked_player(client: httpx.AsyncClient, stats: Stats, rng: random.Random,
                        stop: float, who: str) -> None:
    await asyncio.sleep(rng.random())
    games = 0
    while time.monotonic() < stop:
        games += 1
        # a new player each game (one ranked game a player a day): no cookie yet. The
        # client's jar holds every player's cookies; a Cookie header given (here empty)
        # keeps it from adding them, so each player sends only its own.
        r = await timed(client, stats, "ranked_start", "/api/ranked/start", who,
                        {"nickname": f"bot {who} {games}"}, cookie="", ok=201)
        if r is None:
            await asyncio.sleep(1.0)
            continue
        cookie = "; ".join(f"{k}={v}" for k, v in r.cookies.items())
        game = r.json()["game"]
        moves = 0
        while not game["over"] and time.monotonic() < stop:
            t = time.monotonic()
            action = rng.choice(game["actions"])["action"]
            r = await timed(client, stats, "ranked_move", "/api/ranked/move", who,
                            {"n": str(game["step"] + 1), "action": action}, cookie)
            if r is None:
                break
            game = r.json()["game"]
            moves += 1
            if moves % 5 == 0:
                await timed(client, stats, "leaderboard", "/api/leaderboard", who)
            await asyncio.sleep(max(0.0, t + 1.0 - time.monotonic()))


async def greedy(client: httpx.AsyncClient, counts: dict[str, int], stop: float,
                 rate: float) -> None:
    """One client far over its rate: ``rate`` requests a second."""
    while time.monotonic() < stop:
        t = time.monotonic()
        try:
            r = await client.get("/api/health", headers={"x-forwarded-for": "10.255.255.254"})
            key = str(r.status_code)
            if r.status_code == 429 and "retry-after" not in r.headers:
                key = "429 without Retry-After"
        except httpx.HTTPError as err:
            key = type(err).__name__
        counts[key] = counts.get(key, 0) + 1
        await asyncio.sleep(max(0.0, t + 1.0 / rate - time.monotonic()))


async def player(client: httpx.AsyncClient, stats: Stats, rng: random.Random,
                 stop: float, who: str = "") -> None:
    await asyncio.sleep(rng.random())  # players do not move in lockstep
    while time.monotonic() < stop:
        seed = rng.randrange(2**32)
        s, line, moves = sc.new_game(seed=seed), [], 0
        while not s.is_over and time.monotonic() < stop:
            t = time.monotonic()
            a = rng.choice(sc.legal_actions(s))
            s = sc.apply(s, a)
            line.append(str(a))
            moves += 1
            q = f"seed={seed}&variant=classic&weapon_rule=strict&line={','.join(line)}"
            await timed(client, stats, "move", f"/play?{q}", who)
            if moves % 5 == 0 and not s.is_over:
                await timed(client, stats, "hint", f"/api/hint?{q}", who)
            await asyncio.sleep(max(0.0, t + 1.0 - time.monotonic()))


async def analyst(client: httpx.AsyncClient, stats: Stats, rng: random.Random,
                  stop: float, who: str = "") -> None:
    await asyncio.sleep(2 * rng.random())
    while time.monotonic() < stop:
        t = time.monotonic()
        seed = rng.randrange(2**32)  # a fresh deal: nothing cached in the workers' tables
        await timed(client, stats, "solve", f"/api/solve?seed={seed}&variant=classic", who)
        await asyncio.sleep(max(0.0, t + 2.0 - time.monotonic()))


def rss_mib(pid: int) -> tuple[float, float]:
    """(server process, server plus its worker processes) resident memory in MiB."""
    p = psutil.Process(pid)
    own = p.memory_info().rss
    total = own + sum(c.memory_info().rss for c in p.children(recursive=True))
    return own / 2**20, total / 2**20


async def sampler(pid: int, samples: list[dict[str, Any]], stop: float, t0: float) -> None:
    while True:
        own, total = rss_mib(pid)
        samples.append({"t": round(time.monotonic() - t0, 1), "server_mib": round(own, 1),
                        "total_mib": round(total, 1), "load": load()})
        if time.monotonic() >= stop:
            return
        await asyncio.sleep(min(10.0, max(0.1, stop - time.monotonic())))


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def run(args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    # each simulated client says who it is in X-Forwarded-For (127.0.0.1 trusted as the
    # proxy), so the server's per-client rate limit counts each apart; a throwaway store
    store = Path(tempfile.mkdtemp(prefix="bench-web-")) / "ranked.sqlite3"
    cmd = [sys.executable, "-m", "scoundrel_solver.cli.web", "--port", str(port),
           "--workers", str(args.workers), "--data", str(ROOT / "data"),
           "--database", str(store), "--forwarded-allow-ips", "127.0.0.1",
           # a random ranked player dies within seconds and starts again as a new player
           "--ranked-start-limit", "none"]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True)
    try:
        limits = httpx.Limits(max_connections=args.players + args.ranked + args.analysts + 10)
        async with httpx.AsyncClient(base_url=base, limits=limits,
                                     timeout=httpx.Timeout(60.0)) as client:
            t_start = time.monotonic()
            while True:
                try:
                    if (await client.get("/api/health")).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if server.poll() is not None:
                    err = server.stderr.read() if server.stderr else ""
                    raise SystemExit(f"server exited: {err}")
                await asyncio.sleep(0.2)
            ready = time.monotonic() - t_start
            print(f"server ready in {ready:.1f} s (load {load()}); running {args.seconds} s",
                  file=sys.stderr)
            stats, samples = Stats(), []
            rng = random.Random(args.seed)
            t0 = time.monotonic()
            stop = t0 + args.seconds
            tasks = [player(client, stats, random.Random(rng.random()), stop, address(i))
                     for i in range(args.players)]
            tasks += [ranked_player(client, stats, random.Random(rng.random()), stop,
                                    address(1000 + i)) for i in range(args.ranked)]
            tasks += [analyst(client, stats, random.Random(rng.random()), stop,
                              address(2000 + i)) for i in range(args.analysts)]
            greedy_counts: dict[str, int] = {}
            if args.greedy:
                tasks.append(greedy(client, greedy_counts, stop, args.greedy_rate))
            tasks.append(sampler(server.pid, samples, stop, t0))
            load_start = load()
            await asyncio.gather(*tasks)
            elapsed = time.monotonic() - t0
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    endpoints = {}
    for name, xs in sorted(stats.latencies.items()):
        errors = stats.errors[name]
        endpoints[name] = {
            "requests": len(xs), "per_second": round(len(xs) / elapsed, 2),
            "p50_ms": round(1000 * pct(xs, 0.50), 1), "p95_ms": round(1000 * pct(xs, 0.95), 1),
            "p99_ms": round(1000 * pct(xs, 0.99), 1), "max_ms": round(1000 * max(xs), 1),
            "mean_ms": round(1000 * statistics.fmean(xs), 1),
            "errors": len(errors), "first_errors": errors[:5],
            "target_p95_ms": 1000 * TARGETS[name],
        }
    return {"seconds": round(elapsed, 1), "players": args.players, "ranked": args.ranked,
            "greedy": greedy_counts if args.greedy else None, "analysts": args.analysts,
            "workers": args.workers, "ready_seconds": round(ready, 1), "load_start": load_start,
            "load_end": load(), "endpoints": endpoints, "rss": samples}


def report(res: dict[str, Any]) -> str:
    lines = [f"{res['players']} players + {res.get('ranked', 0)} ranked players + "
             f"{res['analysts']} analysts, {res['workers']} workers, "
             f"{res['seconds']} s; load at start {res['load_start']}, at end {res['load_end']}",
             "",
             "| endpoint | requests | req/s | p50 ms | p95 ms | p99 ms | errors | p95 target |",
             "|---|---:|---:|---:|---:|---:|---:|---|"]
    for name, e in res["endpoints"].items():
        ok = "met" if e["p95_ms"] <= e["target_p95_ms"] else "MISSED"
        lines.append(f"| {name} | {e['requests']} | {e['per_second']} | {e['p50_ms']} | "
                     f"{e['p95_ms']} | {e['p99_ms']} | {e['errors']} | "
                     f"<= {e['target_p95_ms']:g} ms: {ok} |")
    for name, e in res["endpoints"].items():
        lines += [f"  {name} error: {text}" for text in e["first_errors"]]
    if res.get("greedy") is not None:
        g = res["greedy"]
        lines += ["", f"greedy client: {sum(g.values())} requests, answered "
                  + ", ".join(f"{k}: {v}" for k, v in sorted(g.items()))]
    rss = res["rss"]
    totals = [s["total_mib"] for s in rss]
    lines += ["", f"RSS (server + workers) MiB: first {totals[0]}, min {min(totals)}, "
              f"max {max(totals)}, last {totals[-1]} over {len(rss)} samples"]
    lines += [f"  t={s['t']:>6} s  server {s['server_mib']:>6} MiB  total {s['total_mib']:>7} "
              f"MiB  load {s['load']}" for s in rss]
    return "\n".join(lines)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--seconds", type=float, default=600.0)
    p.add_argument("--players", type=int, default=50)
    p.add_argument("--ranked", type=int, default=20)
    p.add_argument("--analysts", type=int, default=5)
    p.add_argument("--greedy", action="store_true",
                   help="add one client far over the per-client rate limit")
    p.add_argument("--greedy-rate", type=float, default=60.0,
                   help="the greedy client's requests a second (default 60)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", help="write the results as JSON here too")
    p.add_argument("--report", metavar="FILE", help="print the report of a run saved by --out")
    args = p.parse_args()
    if args.report:
        try:
            text = report(json.loads(Path(args.report).read_text()))
        except (OSError, ValueError, KeyError, TypeError) as e:
            p.error(f"--report {args.report}: not a saved run ({e})")
        print(text)
        return 0
    res = asyncio.run(run(args))
    text = report(res)
    print(text)
    if args.out:
        Path(args.out).write_text(json.dumps(res, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
