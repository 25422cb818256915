"""Latency of ``hint`` in scoundrel-play: the fair agent valuing every legal action.

    /work/venv/bin/python benchmarks/bench_hints.py [--games 20] [--seed0 30000]

Games are played by three kinds of player (the fair agent itself, the greedy
baseline, a random player: the random one reaches the odd positions a
beginner does), each game with a fresh :class:`Hints` as one session has, and
a hint is timed at every decision. The first hint of a fresh process, which
also imports numba and loads the cached kernels, is timed in subprocesses;
with ``--tty N`` also in a real terminal (tmux), typed at once and after a
pause of N seconds (scoundrel-play loads the kernels in the background on a
terminal while the player reads the first room).
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import time

import scoundrel_core as sc
from scoundrel_solver.coach.hints import Hints
from scoundrel_solver.fair.api import make_agent
from scoundrel_solver.play.session import Session

FIRST_HINT = """
import time
import scoundrel_core as sc
from scoundrel_solver.play.session import Session
game = Session(sc.new_game(seed={seed}))
t, c = time.perf_counter(), time.process_time()
from scoundrel_solver.coach.hints import Hints
Hints().values(game)
print(time.perf_counter() - t, time.process_time() - c)
"""


def hint_times(player: str, seeds: range, variant: str) -> list[tuple[int, float, float]]:
    """(unseen cards, wall seconds, CPU seconds) for a hint at every decision of each game.

    The machine is shared, so wall time includes waiting for a core; CPU time is
    what the hint itself costs.
    """
    out: list[tuple[int, float, float]] = []
    for seed in seeds:
        agent = make_agent(player)
        agent.reset(seed)
        game = Session(sc.new_game(seed=seed, variant=variant), seed)
        hints = Hints()
        while not game.is_over:
            t, c = time.perf_counter(), time.process_time()
            hints.values(game)
            out.append((len(game.info.unseen), time.perf_counter() - t, time.process_time() - c))
            a, _ = agent.choose(game.info)
            game.play(a)
    return out


def first_hint(seeds: range) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of the first hint of a fresh process."""
    out = []
    for s in seeds:
        run = subprocess.run([sys.executable, "-c", FIRST_HINT.format(seed=s)],
                             capture_output=True, text=True, check=True)
        wall, cpu = map(float, run.stdout.split())
        out.append((wall, cpu))
    return out


def first_hint_on_a_terminal(pause: float) -> float:
    """Seconds from typing ``hint`` to its values on screen, in a fresh tmux session."""
    tmux = ["tmux", "-L", f"bench-hints-{os.getpid()}-{time.monotonic_ns()}"]  # a new server
    play = shlex.join([sys.executable, "-m", "scoundrel_solver.cli.play", "--seed", "42"])

    def screen() -> str:
        return subprocess.run([*tmux, "capture-pane", "-p", "-t", "b"], capture_output=True,
                              text=True, check=True).stdout

    subprocess.run([*tmux, "new-session", "-d", "-s", "b", "-x", "120", "-y", "40",
                    f"{play}; sleep 60"], check=True)
    try:
        while not screen().rstrip().endswith(">"):
            time.sleep(0.02)
        time.sleep(pause)
        t = time.perf_counter()
        subprocess.run([*tmux, "send-keys", "-t", "b", "hint", "Enter"], check=True)
        while "exact" not in screen() and "estimated" not in screen():
            time.sleep(0.01)
        return time.perf_counter() - t
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)


def summary(name: str, times: list[tuple[float, float]]) -> str:
    """Median, 90th and 99th percentiles and worst, wall and CPU, in milliseconds (the
    percentiles are order statistics: no interpolation between two hints)."""
    parts = [f"{name:26s} {len(times):6d}"]
    for column in (0, 1):
        t = sorted(row[column] for row in times)
        p90, p99 = (t[int(q * (len(t) - 1))] for q in (0.9, 0.99))
        parts.append(f"{1000 * statistics.median(t):8.2f} {1000 * p90:7.1f} "
                     f"{1000 * p99:7.1f} {1000 * t[-1]:7.1f}")
    return "   ".join(parts)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed0", type=int, default=30000)
    p.add_argument("--variant", default="classic")
    p.add_argument("--first", type=int, default=3, help="fresh processes for the first hint")
    p.add_argument("--tty", type=float, default=None, metavar="SECONDS",
                   help="also time the first hint in tmux, at once and after this pause")
    args = p.parse_args()
    seeds = range(args.seed0, args.seed0 + args.games)
    print(f"hint agent: the fair agent with its variant's defaults; variant {args.variant}; "
          f"{args.games} games per player")
    print(f"{'':33s}   wall ms: median   p90    p99  worst   CPU ms: median   p90    p99  worst")
    every: list[tuple[int, float, float]] = []
    for player in ("fair", "greedy", "random"):
        rows = hint_times(player, seeds, args.variant)
        every += rows
        print(summary(player, [(w, c) for _, w, c in rows]))
    print(summary("all", [(w, c) for _, w, c in every]))
    for lo, hi in ((37, 40), (25, 36), (13, 24), (0, 12)):
        print(summary(f"  unseen {lo}-{hi}", [(w, c) for u, w, c in every if lo <= u <= hi]))
    if args.first:
        print(summary("first hint, incl. loading", first_hint(range(args.first))))
    if args.tty is not None:
        for pause in (0.0, args.tty):
            wall = [first_hint_on_a_terminal(pause) for _ in range(3)]
            print(f"first hint in a terminal, typed {pause:.0f} s after the prompt: "
                  f"{', '.join(f'{w:.2f}' for w in wall)} s (wall, 3 sessions)")


if __name__ == "__main__":
    main()
