"""Where the one-ply learned policy loses its games: it and the fair agent, switching phase.

    python experiments/policy_phases.py --arm policy>12 --seeds 1900000:1900500 \
        --out phases.jsonl
    python experiments/policy_phases.py --table phases.jsonl

An arm is one agent on a seed range; each row of ``--out`` (JSON lines, appended as a
game ends, so a stopped run resumes) is ``arm``, ``seed``, ``won``, ``score``, ``cpu``
(CPU seconds of the game, one core) and ``decisions``. Arms:

- ``policy``: the one-ply learned policy alone (``scoundrel-eval --agent value``);
- ``fair``: the fair agent alone, as shipped;
- ``policy>U``: the policy while more than U cards are unseen, the fair agent after;
- ``fair>U``: the fair agent while more than U cards are unseen, the policy after.

Each switch arm, paired deal by deal with the two agents alone, says how many games one
agent loses in one part of the game. The table pairs every arm with ``policy`` and with
``fair`` on the seeds both played (wins, paired difference with its 95% interval). Both
agents see only what a player sees, so each switch arm does too. Use the deals the
policy's fits are measured on (``MEASURED_SEEDS``, never fitted on), or fresh ones.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from scoundrel_core import Action
from scoundrel_core.info import InfoState
from scoundrel_solver.fair.agent import FairAgent
from scoundrel_solver.fair.api import play_with
from scoundrel_solver.fair.protocol import Agent
from scoundrel_solver.fair.value.policy import ValuePolicy
from scoundrel_solver.runs.jsonl import read_json_lines
from scoundrel_solver.runs.summary import Z95

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fair_ab import arm_seeds, run_arm

_ARM = re.compile(r"(policy|fair)(?:>(\d{1,2}))?\Z")


class Switch:
    """``early`` while more than ``above`` cards are unseen, ``late`` from then on."""

    def __init__(self, early: Agent, late: Agent, above: int) -> None:
        self.early, self.late, self.above = early, late, above

    def reset(self, seed: int) -> None:
        self.early.reset(seed)
        self.late.reset(seed)

    def choose(self, info: InfoState) -> tuple[Action, bool]:
        agent = self.early if len(info.unseen) > self.above else self.late
        return agent.choose(info)


def agent_of(arm: str) -> Agent:
    """The agent an arm's name plays (a ValueError names a bad one)."""
    m = _ARM.match(arm)
    if m is None:
        raise ValueError(f"arm {arm!r:.40}: expected policy, fair, policy>U or fair>U "
                         "(U unseen cards, 0-44)")
    first, above = m.group(1), m.group(2)
    agents: dict[str, Agent] = {"policy": ValuePolicy(), "fair": FairAgent()}
    if above is None:
        return agents[first]
    if int(above) > 44:
        raise ValueError(f"arm {arm!r}: U must be 0-44 unseen cards")
    other = "fair" if first == "policy" else "policy"
    return Switch(agents[first], agents[other], int(above))


def play(arm: str, agent: Agent, seed: int, variant: str) -> dict[str, Any]:
    start = time.process_time()
    game = play_with(agent, seed, variant)
    return {"arm": arm, "seed": seed, "won": bool(game.won), "score": game.score,
            "cpu": round(time.process_time() - start, 3), "decisions": len(game.actions)}


def paired(a: dict[int, bool], b: dict[int, bool]) -> dict[str, Any]:
    """B against A on the seeds both played: wins, deals won by one only, and B's win
    rate minus A's in points with a 95% normal interval for paired outcomes."""
    seeds = sorted(set(a) & set(b))
    n = len(seeds)
    d = [int(b[s]) - int(a[s]) for s in seeds]
    mean = sum(d) / n if n else 0.0
    var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    half = Z95 * (var / n) ** 0.5 if n else 0.0
    return {"deals": n, "a_won": sum(a[s] for s in seeds), "b_won": sum(b[s] for s in seeds),
            "b_only": sum(x > 0 for x in d), "a_only": sum(x < 0 for x in d),
            "diff": 100 * mean, "low": 100 * (mean - half), "high": 100 * (mean + half)}


def table(paths: Sequence[Path]) -> str:
    """Every arm of the files paired with ``policy`` and with ``fair``, as Markdown."""
    wins: dict[str, dict[int, bool]] = {}
    for path in paths:
        for _, row in read_json_lines(path):
            wins.setdefault(row["arm"], {})[int(row["seed"])] = bool(row["won"])
    order = sorted(wins, key=lambda a: (a.split(">")[0] != "policy", -int(a.split(">")[1])
                                        if ">" in a else 1))
    lines = ["| arm | deals | won | win rate | against the policy alone: paired diff, points "
             "(95%) | against the fair agent alone: paired diff, points (95%) |",
             "|---|---:|---:|---:|---|---|"]
    for arm in order:
        w = wins[arm]
        cells = []
        for base in ("policy", "fair"):
            if base == arm or base not in wins:
                cells.append("-")
                continue
            p = paired(wins[base], w)
            cells.append(f"{p['diff']:+.1f} ({p['low']:+.1f} to {p['high']:+.1f}) on "
                         f"{p['deals']}")
        rate = 100 * sum(w.values()) / len(w)
        lines.append(f"| {arm} | {len(w)} | {sum(w.values())} | {rate:.1f}% | {cells[0]} | "
                     f"{cells[1]} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--arm", help="policy, fair, policy>U or fair>U")
    p.add_argument("--seeds", help="A:B")
    p.add_argument("--variant", default="classic/strict")
    p.add_argument("--out", type=Path)
    p.add_argument("--table", type=Path, nargs="+", metavar="FILE",
                   help="print the paired table of these files' rows")
    args = p.parse_args(argv)
    if args.table:
        for path in args.table:
            if not path.is_file():
                p.error(f"--table {path}: no such file")
        print(table(args.table))
        return 0
    if not (args.arm and args.seeds and args.out):
        p.error("--arm, --seeds and --out are needed to play (or --table FILE)")
    try:
        agent = agent_of(args.arm)
    except ValueError as e:
        p.error(str(e))
    seeds, done = arm_seeds(p, args)
    done = {int(r["seed"]) for _, r in read_json_lines(args.out)
            if r.get("arm") == args.arm} if args.out.exists() else set()
    return run_arm(args.out, seeds, done, lambda seed: play(args.arm, agent, seed, args.variant))


if __name__ == "__main__":
    sys.exit(main())
