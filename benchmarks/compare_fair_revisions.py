"""Side by side: the fair agent's search kernel of a git revision against this tree.

    python benchmarks/compare_fair_revisions.py 9fab927 --variant hard --games 12
    python benchmarks/compare_fair_revisions.py main --candidate HEAD --variant classic

The candidate (by default the working tree this script lives in; else the
revision ``--candidate`` names) plays ``--games`` games from ``--seed0`` on,
and every search its agent asks of the kernel (``_kernel.search_root``: the
root's frame row, the unseen counts, the known bottom, the actions, the
variant's codes and the leaf weights) is recorded, with the game it belongs
to. Each side then replays the same searches in its own process, a game's
searches sharing one memo as in play, ``--rounds`` times; the two sides
alternate, the side that goes first alternating from round to round, so
machine noise falls on both alike. Only one side runs at a time.

The two sides must give the same values bit for bit (value, win chance and
exactness of every action of every search): at the first difference the
script names the search and exits with status 1. Then it prints a table of
the CPU seconds of a replay (median and each round), the decision nodes and
leaf evaluations the searches counted (``stats``; a leaf reused from the memo
counts again), and the ratio baseline / candidate (above 1: the candidate is
faster). Both revisions must have the
same ``search_root`` signature (true since the memo was shared between
searches); otherwise the replay fails and says so.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from scoundrel_core import get_variant

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_revisions import CompareError, install_revision

# Runs inside each side's environment. "record": play games, pickling every search
# asked of the kernel; "replay": replay them, printing the CPU time of each round
# and saving the values of the first.
WORKER = r'''
import json, pickle, sys, time
import numpy as np
from scoundrel_solver.fair import _kernel as K

mode, calls_path = sys.argv[1], sys.argv[2]
if mode == "record":
    from scoundrel_solver.fair.agent import FairAgent
    from scoundrel_solver.fair.api import play_with
    variant, seed0, games = sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    calls, game = [], [0]
    search = K.search_root
    def recording(root, cnt, bot, slots, modes, cfg, par, out, out_win, exact, stats, memo):
        calls.append((game[0], root.copy(), cnt.copy(), bot.copy(), slots.copy(),
                      modes.copy(), cfg.copy(), par.copy()))
        search(root, cnt, bot, slots, modes, cfg, par, out, out_win, exact, stats, memo)
    K.search_root = recording
    agent = FairAgent()
    for seed in range(seed0, seed0 + games):
        game[0] = seed
        play_with(agent, seed, variant)
    with open(calls_path, "wb") as f:
        pickle.dump(calls, f)
    print(json.dumps({"searches": len(calls)}), flush=True)
    sys.exit(0)

with open(calls_path, "rb") as f:
    calls = pickle.load(f)

def replay():
    values, memo, current = [], None, None
    counted = np.zeros(2, np.int64)
    for game, root, cnt, bot, slots, modes, cfg, par in calls:
        if game != current:
            memo, current = K.new_memo(), game
        n = len(slots)
        out, out_win = np.zeros(n), np.zeros(n)
        exact, stats = np.zeros(n, np.int64), np.zeros(2, np.int64)
        K.search_root(root, cnt.copy(), bot.copy(), slots, modes, cfg, par,
                      out, out_win, exact, stats, memo)
        values.append(np.concatenate([out, out_win, exact.astype(np.float64)]))
        counted += stats
    return values, counted

try:
    first, counted = replay()  # compiles (or loads numba's cache) before the clock
except Exception as e:  # a kernel of another signature
    print(json.dumps({"error": f"{type(e).__name__}: {e}"}), flush=True)
    sys.exit(0)
np.save(sys.argv[3], np.array(first, dtype=object), allow_pickle=True)
print(json.dumps({"decisions": int(counted[0]), "leaves": int(counted[1])}), flush=True)
for _ in sys.stdin:
    c0 = time.process_time()
    replay()
    print(json.dumps({"cpu": time.process_time() - c0}), flush=True)
'''


def _worker(python: Path, *args: str, stdin: int | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([str(python), "-c", WORKER, *args], stdin=stdin,
                            stdout=subprocess.PIPE, text=True)


def _message(proc: subprocess.Popen[str], label: str) -> dict[str, object]:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line:
        raise CompareError(f"the {label} worker stopped (status {proc.wait()})")
    msg: dict[str, object] = json.loads(line)
    if "error" in msg:
        raise CompareError(f"the {label} kernel cannot replay the searches: {msg['error']}")
    return msg


def first_difference(base: Sequence[object], cand: Sequence[object]) -> int | None:
    """The index of the first search whose values differ (bit for bit), or None."""
    import numpy as np

    if len(base) != len(cand):
        return min(len(base), len(cand))
    for i, (a, b) in enumerate(zip(base, cand, strict=True)):
        if not np.array_equal(a, b):
            return i
    return None


def compare(args: argparse.Namespace) -> str:
    import numpy as np

    with tempfile.TemporaryDirectory(prefix="scoundrel-fair-compare-") as tmp:
        where = Path(tmp)
        base_py = install_revision(args.baseline, where / "base")
        cand_py = (install_revision(args.candidate, where / "cand") if args.candidate
                   else Path(sys.executable))
        calls = where / "calls.pkl"
        rec = _worker(cand_py, "record", str(calls), args.variant, str(args.seed0),
                      str(args.games))
        searches = _message(rec, "candidate")["searches"]
        rec.wait()
        sides = {}
        counts = {}
        for label, python in (("baseline", base_py), ("candidate", cand_py)):
            proc = _worker(python, "replay", str(calls), str(where / f"{label}.npy"),
                           stdin=subprocess.PIPE)
            counts[label] = _message(proc, label)
            sides[label] = proc
        values = {k: np.load(where / f"{k}.npy", allow_pickle=True) for k in sides}
        diff = first_difference(values["baseline"], values["candidate"])
        if diff is not None:
            raise CompareError(f"search {diff} of {searches} ({args.variant}, games from seed "
                               f"{args.seed0}) has different values on the two sides")
        cpu: dict[str, list[float]] = {k: [] for k in sides}
        for r in range(args.rounds):
            order = list(sides) if r % 2 == 0 else list(reversed(sides))
            for label in order:
                proc = sides[label]
                assert proc.stdin is not None
                proc.stdin.write("go\n")
                proc.stdin.flush()
                cpu[label].append(float(_message(proc, label)["cpu"]))  # type: ignore[arg-type]
        for proc in sides.values():
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait()
    med = {k: statistics.median(v) for k, v in cpu.items()}
    lines = [
        f"{searches} searches of {args.games} {args.variant} games (seeds {args.seed0}-"
        f"{args.seed0 + args.games - 1}), the same values bit for bit on both sides.",
        "",
        "| side | revision | CPU s per replay, median | rounds | decision nodes | leaves |",
        "|---|---|---:|---|---:|---:|",
        *(f"| {k} | {rev} | {med[k]:.2f} | " + ", ".join(f"{x:.2f}" for x in cpu[k])
          + f" | {counts[k]['decisions']:,} | {counts[k]['leaves']:,} |"
          for k, rev in (("baseline", args.baseline),
                         ("candidate", args.candidate or "working tree"))),
        "",
        f"Ratio baseline / candidate: {med['baseline'] / med['candidate']:.2f}",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("baseline", help="the git revision to compare against")
    p.add_argument("--candidate", help="a git revision (default: this working tree)")
    p.add_argument("--variant", default="hard", help="default hard")
    p.add_argument("--games", type=int, default=12, help="games recorded (default 12)")
    p.add_argument("--seed0", type=int, default=31000,
                   help="first seed (default 31000, outside the evaluation's 0-9999)")
    p.add_argument("--rounds", type=int, default=3, help="replays per side (default 3)")
    args = p.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        p.error("--games and --rounds must be at least 1")
    try:
        get_variant(args.variant)
    except ValueError as e:
        p.error(f"--variant {args.variant!r}: {e}")
    try:
        print(compare(args))
    except CompareError as e:
        print(f"compare_fair_revisions: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
