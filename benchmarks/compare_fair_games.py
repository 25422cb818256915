"""Side by side: whole games of the fair agent of a git revision against this working tree.

    python benchmarks/compare_fair_games.py 227e5a2 --variant classic/strict --seeds 4000:4080
    python benchmarks/compare_fair_games.py 227e5a2 --changes '{"endgame_cap": 32}'

Each side is a long-lived worker process (the baseline revision installed as
``compare_revisions.py`` installs it; the candidate is this working tree) that
plays one game before the clock starts, so compiling is not counted. The deals are
handed out in blocks, alternately, the side that goes first alternating from block
to block, and only one side plays at a time, so the machine's load falls on both
alike. A game's cost is the CPU seconds of its worker (one core).

``--changes`` plays the candidate with those :class:`AgentConfig` fields changed for
every variant (``configs_with``): a setting's cost against the agent as it was.
Without it both sides must play the same games (score and number of decisions, deal
by deal): at the first difference the script names the deal and exits with status 1.
At the end it prints the median, mean, p90 and worst CPU seconds of a game on each
side, the ratio of medians and the median of the per-deal ratios (baseline /
candidate: above 1, the candidate is cheaper), and the one-minute load over the run.
``--out FILE`` also writes every game as a JSON line (``side``: baseline or candidate,
``label``, ``seed``, ``score``, ``decisions``, ``cpu``), for a table to be made from.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_revisions import REPO, CompareError, Side, install_revision, percentile, stop_sides

# Runs inside each side's environment: plays whole games of the fair agent, one per
# seed read from stdin, and prints what each cost.
WORKER = r'''
import json, signal, sys, time
# a Ctrl-C reaches the whole process group: the parent stops the workers itself
signal.signal(signal.SIGINT, signal.SIG_IGN)
import scoundrel_core as sc
from scoundrel_core.info import InfoState, observe
from scoundrel_solver.fair.agent import FairAgent

variant, changes, warm_seed = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
if changes:
    from scoundrel_solver.fair.config import configs_with
    agent = FairAgent(configs_with(**changes))
else:
    agent = FairAgent()
name, rule = variant.split("/")

def game(seed):
    agent.reset(seed)
    s = sc.new_game(seed=seed, variant=name, weapon_rule=rule)
    info, decisions = InfoState.initial(s), 0
    c0 = time.process_time()
    while not s.is_over:
        a = agent.choose(info)[0]
        s2 = sc.apply(s, a)
        info, s, decisions = observe(info, a, s2), s2, decisions + 1
    return {"seed": seed, "score": s.score, "decisions": decisions,
            "cpu": time.process_time() - c0}

game(warm_seed)  # compile and load before the clock
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    print(json.dumps(game(int(line))), flush=True)
'''


def start(label: str, python: Path, env: dict[str, str], args: argparse.Namespace,
          script: Path, changes: dict[str, object]) -> Side:
    argv = [str(python), str(script), args.variant, json.dumps(changes),
            str(args.seeds.stop + 10**6)]
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env=env)
    return Side(label, proc).ready()


def table(base: Side, cand: Side, loads: Sequence[float]) -> str:
    rows = []
    for name, pick in (("median", lambda c: percentile(c, 0.5)),
                       ("mean", lambda c: sum(c) / len(c)),
                       ("p90", lambda c: percentile(c, 0.9)), ("worst", max)):
        b, c = (pick([r["cpu"] for r in side.rows]) for side in (base, cand))
        rows.append(f"| {name} CPU s a game | {b:.3f} | {c:.3f} | "
                    f"{b / c if c else float('nan'):.2f} |")
    per_deal = [rb["cpu"] / rc["cpu"] for rb, rc in zip(base.rows, cand.rows, strict=True)
                if rc["cpu"] > 0]
    return "\n".join([f"| figure | {base.label} | {cand.label} | ratio |", "|:---|---:|---:|---:|",
                      *rows, f"| median per-deal ratio | | | {statistics.median(per_deal):.2f} |",
                      "", f"load (1-min) {min(loads):.1f}-{max(loads):.1f} over the run"])


def compare(args: argparse.Namespace) -> str:
    with tempfile.TemporaryDirectory(prefix="scoundrel-compare-") as tmp:
        script = Path(tmp, "worker.py")
        script.write_text(WORKER)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        print(f"installing {args.baseline} ...", file=sys.stderr, flush=True)
        base_py = install_revision(args.baseline, Path(tmp, "baseline"))
        print("compiling both sides ...", file=sys.stderr, flush=True)
        label = "working tree" + (f" {json.dumps(args.changes)}" if args.changes else "")
        sides: list[Side] = []
        seeds = list(args.seeds)
        loads = [os.getloadavg()[0]]
        finished = False
        try:
            sides.append(start(args.baseline, base_py, env, args, script, {}))
            sides.append(start(label, Path(sys.executable),
                               {**env, "PYTHONPATH": str(REPO / "src")}, args, script,
                               args.changes))
            base, cand = sides
            for b, i in enumerate(range(0, len(seeds), args.block)):
                block = seeds[i:i + args.block]
                order = (base, cand) if b % 2 == 0 else (cand, base)
                done = {id(side): side.solve(block) for side in order}
                loads.append(os.getloadavg()[0])
                for rb, rc in zip(done[id(base)], done[id(cand)], strict=True):
                    same = (rb["score"], rb["decisions"]) == (rc["score"], rc["decisions"])
                    if not args.changes and not same:
                        raise CompareError(
                            f"{args.variant} seed {rb['seed']}: score {rb['score']} in "
                            f"{rb['decisions']} decisions ({base.label}) != {rc['score']} in "
                            f"{rc['decisions']} ({cand.label})")
                print(f"[{i + len(block)}/{len(seeds)}]", file=sys.stderr, flush=True)
            finished = True
        finally:
            stop_sides(sides, finished)
        if args.out is not None:
            args.out.write_text("".join(
                json.dumps({"side": name, "label": side.label, **row}) + "\n"
                for name, side in (("baseline", base), ("candidate", cand))
                for row in side.rows))
        alike = "" if args.changes else ", the same games"
        return (f"{args.variant}, seeds {args.seeds.start}:{args.seeds.stop} ({len(seeds)} "
                f"deals{alike})\n\n{table(base, cand, loads)}")


def _seeds(text: str) -> range:
    try:
        a, b = (int(x) for x in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed range {text!r} is not START:STOP") from None
    if not 0 <= a < b:
        raise argparse.ArgumentTypeError(f"seed range {text!r} is empty")
    return range(a, b)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("baseline", help="git revision to compare against (e.g. 227e5a2, main)")
    ap.add_argument("--variant", default="classic/strict", help="e.g. classic/strict")
    ap.add_argument("--seeds", type=_seeds, default=range(4000, 4080), help="START:STOP")
    ap.add_argument("--block", type=int, default=20, help="deals per turn of a side (20)")
    ap.add_argument("--changes", type=json.loads, default={},
                    help="AgentConfig fields the candidate changes, as JSON")
    ap.add_argument("--out", type=Path, default=None,
                    help="also write every game here, as JSON lines")
    args = ap.parse_args(argv)
    if args.block < 1:
        ap.error(f"--block {args.block} must be at least 1")
    if not isinstance(args.changes, dict):
        ap.error(f"--changes {args.changes!r} must be a JSON object of AgentConfig fields")
    from scoundrel_solver.errors import SolverError
    from scoundrel_solver.fair.config import configs_with

    try:
        from scoundrel_core import get_variant

        args.variant = str(get_variant(args.variant))  # "classic" is classic/strict
        configs_with(**args.changes)
    except (SolverError, ValueError, TypeError) as err:
        ap.error(f"{err}")
    try:
        print(compare(args))
    except CompareError as err:
        print(f"compare_fair_games: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("compare_fair_games: interrupted, nothing saved", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
