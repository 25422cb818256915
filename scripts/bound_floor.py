"""How low a bound that penalises only the first k chance steps can ever go.

A bound that charges the chance steps only up to the k-th after the deal
holds for every player who plays fair until then, whatever it does after: its
penalties have mean zero for such a player too. So no ``V`` can bring it below
the win rate of the best such player, and one such player is the fair agent
until the k-th chance step, then the exact solver with the dungeon seen
(counting the deal won if it can still be won from there). This script plays
that player on seeded deals and prints its win rate: a floor under the
k-step bound of ``scoundrel-bound --steps K``, whatever ``V``.

    python scripts/bound_floor.py --seeds 0:200 --variant classic --steps 1 2 3
    python scripts/bound_floor.py --seeds 0:2000 --variant hard --out data/bound-floor.jsonl

One game per deal serves every ``k``: the agent plays until the largest ``k``,
and the exact solver is asked at each ``k``-th chance step on the way. With
``--out FILE`` each deal's row (the deal, won with the dungeon seen from the
start, and per ``k`` won by the player fair until then) is appended as it
ends, with the agent's and solver's versions; the same command resumes,
playing only the deals the file does not hold for those steps and versions.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import scoundrel_core as sc
from scoundrel_core.info import ChanceNode, InfoState, observe
from scoundrel_solver.exact import is_winnable
from scoundrel_solver.exact.version import solver_version
from scoundrel_solver.fair import FairAgent
from scoundrel_solver.fair.version import agent_version
from scoundrel_solver.runs.jsonl import LineAppender, read_json_lines
from scoundrel_solver.runs.seeds import parse_seed_range

FORMAT = "bound-floor/1"
MAX_FLOOR_STEPS = 8


def fair_then_seen(seed: int, variant: sc.Variant, steps: Sequence[int],
                   agent: FairAgent) -> dict[int, bool]:
    """Per ``k`` in ``steps``: whether the fair agent, shown the dungeon after ``k``
    chance steps, wins (the exact solver plays on from there)."""
    s = sc.new_game(seed=seed, variant=variant)
    info = InfoState.initial(s)
    agent.reset(seed)
    passed = 0
    out: dict[int, bool] = {}
    if 0 in steps:
        out[0] = bool(is_winnable(s))
    while not s.is_over and len(out) < len(steps):
        a = agent(info)
        chance = isinstance(info.apply(a), ChanceNode)
        s2 = sc.apply(s, a)
        info, s = observe(info, a, s2), s2
        if chance:
            passed += 1
            if passed in steps:
                out[passed] = bool(s.health > 0) if s.is_over else bool(is_winnable(s))
    for k in steps:  # the game ended before the k-th step: its outcome is the player's
        out.setdefault(k, bool(s.health > 0))
    return out


def settings(variant: sc.Variant, steps: Sequence[int]) -> dict[str, Any]:
    """The fields that say which floor a row belongs to."""
    return {"format": FORMAT, "variant": variant.name, "weapon_rule": variant.weapon_rule,
            "steps": sorted(steps), "agent_version": agent_version(),
            "solver_version": solver_version()}


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of a ``--out`` file (a missing file has none)."""
    rows = []
    for n, row in read_json_lines(path):
        if not isinstance(row, dict) or row.get("format") != FORMAT:
            raise SystemExit(f"{path}:{n}: not a {FORMAT} row")
        rows.append(row)
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    p.add_argument("--seeds", type=parse_seed_range, default=parse_seed_range("0:200"))
    p.add_argument("--variant", default="classic")
    p.add_argument("--weapon-rule", default="strict")
    p.add_argument("--steps", type=int, nargs="+", default=[1, 2, 3])
    p.add_argument("--out", type=Path, help="append one row per deal (resumable)")
    args = p.parse_args(argv)
    steps = sorted(set(args.steps))
    if not 0 <= steps[0] <= steps[-1] <= MAX_FLOOR_STEPS:
        p.error(f"--steps: each within 0..{MAX_FLOOR_STEPS}")
    variant = sc.Variant(args.variant, args.weapon_rule)
    agent = FairAgent()
    given = settings(variant, steps)
    rows: dict[int, dict[str, Any]] = {}
    if args.out is not None:
        rows = {r["seed"]: r for r in read_rows(args.out)
                if r["seed"] in args.seeds and all(r.get(k) == v for k, v in given.items())}
    sink = LineAppender(args.out) if args.out is not None else None
    try:
        for seed in args.seeds:
            if seed in rows:
                continue
            won = fair_then_seen(seed, variant, [0, *steps], agent)
            row = {**given, "seed": seed, "seen": won[0],
                   "fair_then_seen": {str(k): won[k] for k in steps}}
            if sink is not None:
                sink.append(json.dumps(row))
            rows[seed] = row
    finally:
        if sink is not None:
            sink.close()
    n = len(rows)
    seen = sum(bool(r["seen"]) for r in rows.values())
    print(f"{variant}: the dungeon seen from the start: {seen}/{n} = {100 * seen / n:.2f}%")
    for k in steps:
        won_k = sum(bool(r["fair_then_seen"][str(k)]) for r in rows.values())
        print(f"{variant}: fair for {k} chance steps, then the dungeon seen: "
              f"{won_k}/{n} = {100 * won_k / n:.2f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
