"""Side by side: the exact solver of a git revision against this working tree.

    python benchmarks/compare_revisions.py 87d4977 --variant classic --seeds 0:2000
    python benchmarks/compare_revisions.py main --candidate HEAD --variant hard --seeds 0:1000

The baseline revision (and the candidate, if one is named; by default the
candidate is the working tree this script lives in) is exported with
``git archive`` and installed, as a path entry like an editable install,
into a temporary virtual environment that also sees this interpreter's
packages, so nothing is downloaded. Each side runs in its own long-lived worker process, which
loads its compiled kernels (numba's cache, filled by a first run) and solves
one deal before the clock starts. The deals (variant, weapon
rule, seed range) are handed out in blocks, alternately to the two workers,
and the side that goes first alternates from block to block, so machine noise
falls on both sides alike. Only one worker solves at a time.

Best scores must be identical deal by deal: at the first difference the
script names the deal and exits with status 1. At the end it prints a
markdown table: mean, median, p90 and worst milliseconds per deal (wall clock,
and CPU time of the worker, steadier on a loaded machine), mean nodes per
deal and the worker's peak resident memory, with the ratio baseline /
candidate (above 1: the candidate is faster or smaller).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
import venv
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

REPO = Path(__file__).resolve().parent.parent

# Runs inside each side's environment: only the public ``solve`` is used, so
# any revision with ``solve(seed, variant=, weapon_rule=)`` can be compared.
WORKER = r'''
import json, resource, signal, sys, time
# a Ctrl-C reaches the whole process group: the parent stops the workers itself
signal.signal(signal.SIGINT, signal.SIG_IGN)
from scoundrel_solver import solve

def peak_rss_mib():
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10

variant, rule, warm_seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
kwargs = json.loads(sys.argv[4])
solve(warm_seed, variant=variant, weapon_rule=rule, **kwargs)  # compile before the clock
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    seed = int(line)
    t0, c0 = time.perf_counter(), time.process_time()
    r = solve(seed, variant=variant, weapon_rule=rule, **kwargs)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(json.dumps({"seed": seed, "score": r.best_score, "proven": r.proven,
                      "nodes": r.nodes, "wall": wall, "cpu": cpu, "rss": peak_rss_mib()}),
          flush=True)
'''


class CompareError(Exception):
    """The comparison cannot go on (bad revision, failed install, different scores)."""


def _git(*args: str) -> str:
    out = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True)
    if out.returncode != 0:
        raise CompareError(f"git {' '.join(args)}: {out.stderr.strip()}")
    return out.stdout.strip()


def install_revision(rev: str, where: Path) -> Path:
    """Export ``rev`` into ``where`` and install it into a new virtual environment
    that also sees this interpreter's packages; returns the environment's python."""
    commit = _git("rev-parse", "--verify", f"{rev}^{{commit}}")
    src = where / "src"
    src.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", commit], capture_output=True)
    if archive.returncode != 0:
        raise CompareError(f"git archive {rev}: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive.stdout, check=True)
    env_dir = where / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    # The revision's packages first (as an editable install would put them; a
    # wheel build would need the ``wheel`` package, which may not be at hand
    # offline), then this interpreter's packages (numpy, numba, ...).
    ours = [p for p in sys.path if p.endswith("site-packages")]
    Path(site, "_compare.pth").write_text("\n".join([str(src / "src"), *ours]) + "\n")
    return python


@dataclass
class Side:
    """One worker process and what it measured."""

    label: str
    proc: subprocess.Popen[str]
    rows: list[dict[str, float]] = field(default_factory=list)

    def solve(self, seeds: Sequence[int]) -> list[dict[str, float]]:
        stdin, stdout = self._pipes()
        stdin.write("".join(f"{s}\n" for s in seeds))
        stdin.flush()
        got = [json.loads(self._line(stdout)) for _ in seeds]
        self.rows.extend(got)
        return got

    def _pipes(self) -> tuple[IO[str], IO[str]]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        return self.proc.stdin, self.proc.stdout

    def _line(self, stdout: IO[str]) -> str:
        line = stdout.readline()
        if not line:
            raise CompareError(f"the {self.label} worker stopped (exit {self.proc.wait()})")
        return line

    def ready(self) -> Side:
        """Wait for the worker's "ready" line (compiled and warm); on a Ctrl-C or any
        failure meanwhile, stop the worker too."""
        try:
            json.loads(self._line(self._pipes()[1]))
        except BaseException:
            self.proc.terminate()
            self.proc.wait()
            raise
        return self


def stop_sides(sides: Sequence[Side], finished: bool) -> None:
    """End the workers: after the last block they exit when their input closes; before
    it (a Ctrl-C, an error) they are terminated, as the work in hand is not worth
    waiting for."""
    for side in sides:
        if not finished:
            side.proc.terminate()
        if side.proc.stdin is not None:
            side.proc.stdin.close()
        side.proc.wait()


def start_worker(label: str, python: Path, env: dict[str, str], args: argparse.Namespace,
                 script: Path) -> Side:
    kwargs = {} if args.table_mib is None else {"table_mib": args.table_mib}
    argv = [str(python), str(script), args.variant, args.weapon_rule, str(args.seeds.start),
            json.dumps(kwargs)]
    # A first process only fills numba's on-disk cache: the measured worker then
    # loads its kernels on both sides, so compiling does not count in its memory.
    warm = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=env)
    if warm.returncode != 0:
        raise CompareError(f"the {label} side could not solve a deal (exit {warm.returncode})")
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env=env)
    return Side(label, proc).ready()


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest rank: the smallest value with at least ``share`` of them at or below."""
    ordered = sorted(values)
    rank = max(1, math.ceil(len(ordered) * share - 1e-9))
    return ordered[min(rank, len(ordered)) - 1]


def figures(rows: Sequence[dict[str, float]]) -> dict[str, float]:
    wall = [1000 * r["wall"] for r in rows]
    cpu = [1000 * r["cpu"] for r in rows]
    return {
        "mean ms": sum(wall) / len(wall),
        "median ms": percentile(wall, 0.5),
        "p90 ms": percentile(wall, 0.9),
        "worst ms": max(wall),
        "mean CPU ms": sum(cpu) / len(cpu),
        "median CPU ms": percentile(cpu, 0.5),
        "worst CPU ms": max(cpu),
        "mean nodes": sum(r["nodes"] for r in rows) / len(rows),
        "peak RSS MiB": max(r["rss"] for r in rows),
    }


def table(base: Side, cand: Side) -> str:
    fb, fc = figures(base.rows), figures(cand.rows)
    lines = [
        f"| figure | {base.label} | {cand.label} | ratio |",
        "|:---|---:|---:|---:|",
    ]
    for name in fb:
        ratio = fb[name] / fc[name] if fc[name] else float("nan")
        fmt = "{:,.0f}" if name in ("mean nodes", "peak RSS MiB") else "{:,.1f}"
        lines.append(
            f"| {name} | {fmt.format(fb[name])} | {fmt.format(fc[name])} | {ratio:.2f}x |"
        )
    return "\n".join(lines)


def _seeds(text: str) -> range:
    try:
        a, b = (int(x) for x in text.split(":")) if ":" in text else (0, int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed range {text!r} is not START:STOP") from None
    if not 0 <= a < b:
        raise argparse.ArgumentTypeError(f"seed range {text!r} is empty")
    return range(a, b)


def compare(args: argparse.Namespace) -> str:
    with tempfile.TemporaryDirectory(prefix="scoundrel-compare-") as tmp:
        script = Path(tmp, "worker.py")
        script.write_text(WORKER)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        print(f"installing {args.baseline} ...", file=sys.stderr, flush=True)
        base_py = install_revision(args.baseline, Path(tmp, "baseline"))
        if args.candidate is None:
            cand_py, cand_env = Path(sys.executable), {**env, "PYTHONPATH": str(REPO / "src")}
            cand_label = "working tree"
        else:
            print(f"installing {args.candidate} ...", file=sys.stderr, flush=True)
            cand_py, cand_env = install_revision(args.candidate, Path(tmp, "candidate")), env
            cand_label = args.candidate
        print("compiling both sides ...", file=sys.stderr, flush=True)
        sides: list[Side] = []
        seeds = list(args.seeds)
        began = time.perf_counter()
        finished = False
        try:
            sides.append(start_worker(args.baseline, base_py, env, args, script))
            sides.append(start_worker(cand_label, cand_py, cand_env, args, script))
            base, cand = sides
            for b, i in enumerate(range(0, len(seeds), args.block)):
                block = seeds[i : i + args.block]
                order = (base, cand) if b % 2 == 0 else (cand, base)
                done = {id(side): side.solve(block) for side in order}
                for rb, rc in zip(done[id(base)], done[id(cand)], strict=True):
                    if rb["score"] != rc["score"] or rb["proven"] != rc["proven"]:
                        raise CompareError(
                            f"{args.variant}/{args.weapon_rule} seed {rb['seed']}: best score "
                            f"{rb['score']} ({base.label}) != {rc['score']} ({cand.label})"
                        )
                if not args.quiet:
                    print(f"[{i + len(block)}/{len(seeds)}] {time.perf_counter() - began:.0f} s",
                          file=sys.stderr, flush=True)
            finished = True
        finally:
            stop_sides(sides, finished)
        title = (f"{args.variant}/{args.weapon_rule}, seeds {args.seeds.start}:{args.seeds.stop}"
                 f" ({len(seeds)} deals, best scores identical)")
        return f"{title}\n\n{table(base, cand)}"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("baseline", help="git revision to compare against (e.g. 87d4977, main)")
    ap.add_argument("--candidate", default=None, help="git revision (default: the working tree)")
    ap.add_argument("--variant", default="classic", help="classic, easy or hard")
    ap.add_argument("--weapon-rule", default="strict", help="strict or equal")
    ap.add_argument("--seeds", type=_seeds, default=range(200), help="START:STOP (0:200)")
    ap.add_argument("--block", type=int, default=10, help="deals per turn of a side (10)")
    ap.add_argument("--table-mib", type=int, default=None, help="table size (solver default)")
    ap.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = ap.parse_args(argv)
    if args.block < 1:
        ap.error(f"--block {args.block} must be at least 1")
    try:
        print(compare(args))
    except CompareError as err:
        print(f"compare_revisions: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("compare_revisions: interrupted, nothing saved", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
