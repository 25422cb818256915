"""Census throughput and memory: the real command on fresh seed ranges.

    /work/venv/bin/python benchmarks/bench_census.py [--workers 2] [--db scratch.sqlite] \\
        hard/strict:100000:105000 classic/strict:30000:30500 ...

Runs ``python -m scoundrel_solver.cli.census run`` once per range into a
scratch store, polls the store's row count and the resident memory (RSS) of
the client process and of each worker process (the client's child processes
that run Dask workers) every 0.2 s. Reports, per range: the time to the first
stored row (cluster start, worker imports, numba cache load), the steady rate
after it (rows per second between the first row and the end), the whole-run
rate, and the peak RSS of the client and of the largest worker.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psutil

SRC = Path(__file__).resolve().parents[1] / "src"


def rows(db: Path, variant: str, rule: str) -> int:
    try:
        with sqlite3.connect(db) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM results WHERE variant = ? AND "
                                    "weapon_rule = ?", (variant, rule)).fetchone()[0])
    except sqlite3.Error:
        return 0


def measure(spec: str, db: Path, workers: int) -> dict[str, float]:
    pair, lo, hi = spec.split(":")
    variant, rule = pair.split("/")
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    before = rows(db, variant, rule)
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "scoundrel_solver.cli.census", "run", "--seeds", f"{lo}:{hi}",
         "--variant", variant, "--weapon-rule", rule, "--workers", str(workers),
         "--db", str(db), "--quiet"], env=env, stdout=subprocess.PIPE, text=True)
    client = psutil.Process(proc.pid)
    peak_client = peak_worker = 0
    first_t: float | None = None
    first_n = 0
    while proc.poll() is None:
        try:
            peak_client = max(peak_client, client.memory_info().rss)
            for child in client.children(recursive=True):
                if "spawn_main" in " ".join(child.cmdline()):  # a Dask worker process
                    peak_worker = max(peak_worker, child.memory_info().rss)
        except psutil.Error:
            pass
        if first_t is None:
            n = rows(db, variant, rule) - before
            if n:
                first_t, first_n = time.perf_counter(), n
        time.sleep(0.2)
    end = time.perf_counter()
    out = proc.communicate()[0]
    done = rows(db, variant, rule) - before
    if proc.returncode != 0:
        raise SystemExit(f"{spec}: exit {proc.returncode}: {out}")
    steady = (done - first_n) / (end - first_t) if first_t is not None and end > first_t else 0.0
    return {"deals": done, "startup_s": (first_t or end) - t0, "steady_per_s": steady,
            "overall_per_s": done / (end - t0), "client_mib": peak_client / 2**20,
            "worker_mib": peak_worker / 2**20}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("ranges", nargs="+", metavar="VARIANT/RULE:A:B")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--db", type=Path, default=Path("census-bench.sqlite"))
    args = p.parse_args()
    print(f"| variant | deals | start (s) | deals/s steady | deals/s overall "
          f"| client RSS (MiB) | worker RSS (MiB) |  ({args.workers} workers, load "
          f"{os.getloadavg()[0]:.1f})")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for spec in args.ranges:
        m = measure(spec, args.db, args.workers)
        print(f"| {spec} | {m['deals']:.0f} | {m['startup_s']:.1f} | {m['steady_per_s']:.1f} "
              f"| {m['overall_per_s']:.1f} | {m['client_mib']:.0f} | {m['worker_mib']:.0f} |",
              flush=True)


if __name__ == "__main__":
    main()
