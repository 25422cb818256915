"""Targets for the leaf's win net from the agent's own evaluation, on and off its line of play.

    python experiments/leaf_targets.py --variant classic/strict --seeds 1010000:1011000 \
        --out targets.jsonl

A leaf fitted to game outcomes sees only the positions the agent chose, yet one
search compares leaves the agent's games never reach. This script records,
between rooms, what the agent itself makes of such positions:

- ``agent``: each room the agent is dealt (while at least ``--min-unseen`` cards
  are unseen), valued as the agent values it;
- ``branch``: from each such room (at least ``--branch-unseen`` unseen), one
  *deviation*: a uniformly random legal action other than the agent's choice, then
  the agent's own choices until a new room is dealt (the deal drawn from the unseen
  cards with the rules' chances, by a generator seeded from the game's seed), and that
  room valued the same way. Those are the leaves the agent's search compares at
  the room where it deviated.

A room is valued by ``FairAgent.evaluate``: the row of the action the agent plays
gives ``win``, the chance of winning shown to a player (the search's chance
calibrated on the agent's games, with the learned value of the position as a second
witness), and ``searched``, the search's own chance. Both estimate the chance of
winning under the agent's play from the pool between rooms (the room dealt is a
random draw from it). ``agent`` positions also carry the game's outcome.

The agent's game is played exactly as ``FairAgent.choose`` plays it (the action is
that of the values' :func:`~scoundrel_solver.fair.agent.choice`), so ``won`` and
``score`` are the shipped agent's. One JSON line per game (format
``scoundrel-leaf-targets/1``), appended as it ends: a stopped run resumes, skipping
the seeds already in ``--out``. A position records the pool (sorted card names: the
room, the unseen cards and the known bottom), health, weapon, last kill and reach:
what a player knows, never the dungeon's order. Keep the seeds outside 0-9999.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

import scoundrel_core as sc
from scoundrel_core.info import ChanceNode, InfoState, observe
from scoundrel_solver.fair.agent import FairAgent, choice
from scoundrel_solver.runs.jsonl import append_missing, read_json_lines
from scoundrel_solver.runs.seeds import parse_seed_range

FORMAT = "scoundrel-leaf-targets/1"
EVAL_SEEDS = range(0, 10_000)


def pool_of(info: InfoState) -> str:
    """The pool between rooms (the room, the unseen cards and the bottom), sorted names."""
    return " ".join(sorted(str(c) for c in (*info.room, *info.unseen, *info.bottom)))


def valued(agent: FairAgent, info: InfoState) -> tuple[sc.Action, dict[str, Any]]:
    """The action the agent plays at ``info`` and the position's record: what the player
    knows between rooms and the agent's chance of winning from it, shown and searched."""
    vals = agent.evaluate(info)
    best = choice(info, vals)
    assert best is not None
    row = {"unseen": len(info.unseen), "pool": pool_of(info), "health": info.health,
           "weapon": info.weapon_value, "last_kill": info.last_kill or 0,
           "reach": info.weapon_reach, "win": round(best.win_chance, 5),
           "searched": round(best.searched_win_chance, 5)}
    return best.action, row


def deal(node: InfoState | ChanceNode, rng: random.Random) -> InfoState:
    """The decision state once the chance node's cards are drawn with the rules' chances."""
    while isinstance(node, ChanceNode):
        outcomes = node.chance_outcomes()
        pick = rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
        node = node.draw(pick)
    return node


def branch(agent: FairAgent, info: InfoState, played: sc.Action,
           rng: random.Random) -> dict[str, Any] | None:
    """The room after one deviation from ``info`` (see the module docstring), valued; None
    when the deviation's room ends the game or no other action is legal."""
    others = [a for a in info.legal_actions() if a != played]
    if not others:
        return None
    node: InfoState | ChanceNode = info.apply(rng.choice(others))
    while isinstance(node, InfoState) and not node.is_over:
        action, _ = agent.choose(node)
        node = node.apply(action)
    if isinstance(node, InfoState):  # the game ended in the room
        return None
    after = deal(node, rng)
    if after.is_over or not after.legal_actions():
        return None
    _, row = valued(agent, after)
    return {"kind": "branch", **row}


def play(agent: FairAgent, seed: int, variant: str, min_unseen: int,
         branch_unseen: int) -> dict[str, Any]:
    """One game of the agent, with its rooms' and deviations' records."""
    start = time.process_time()
    rng = random.Random(seed)
    s = sc.new_game(seed=seed, variant=variant)
    info = InfoState.initial(s)
    agent.reset(seed)
    positions: list[dict[str, Any]] = []
    while not s.is_over:
        room_start = s.resolved_in_room == 0 and len(info.unseen) >= min_unseen
        if room_start:
            action, row = valued(agent, info)
            positions.append({"kind": "agent", **row})
            if len(info.unseen) >= branch_unseen:
                extra = branch(agent, info, action, rng)
                if extra is not None:
                    positions.append(extra)
        else:
            action, _ = agent.choose(info)
        after = sc.apply(s, action)
        info = observe(info, action, after)
        s = after
    return {"format": FORMAT, "seed": seed, "variant": variant, "won": bool(s.won),
            "score": s.score, "cpu": round(time.process_time() - start, 3),
            "positions": positions}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", required=True, help="A:B, outside 0-9999")
    p.add_argument("--variant", default="classic/strict")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--min-unseen", type=int, default=12,
                   help="record rooms dealt with at least this many cards unseen")
    p.add_argument("--branch-unseen", type=int, default=16,
                   help="deviate from rooms dealt with at least this many cards unseen")
    args = p.parse_args(argv)
    try:
        seeds = parse_seed_range(args.seeds)
        variant = str(sc.get_variant(args.variant))
    except (ValueError, sc.ScoundrelError) as e:
        p.error(str(e))
    if seeds.start < EVAL_SEEDS.stop:
        p.error(f"--seeds {args.seeds}: the evaluation seeds 0-9999 are not for training")
    for name in ("min_unseen", "branch_unseen"):
        if not 0 <= getattr(args, name) <= 44:
            p.error(f"--{name.replace('_', '-')} {getattr(args, name)}: must be 0..44")
    if seeds.count > 1_000_000:
        p.error(f"--seeds {args.seeds}: at most 1,000,000 games a run")
    done = ({int(row["seed"]) for _, row in read_json_lines(args.out)}
            if args.out.exists() else set())
    agent = FairAgent()
    from tqdm import tqdm

    bar = tqdm(total=sum(seed not in done for seed in seeds), desc=f"{variant} targets",
               unit="game")
    try:
        append_missing(args.out, seeds, done,
                       lambda seed: play(agent, seed, variant, args.min_unseen,
                                         args.branch_unseen),
                       progress=lambda _seed, _game: bar.update())
    except KeyboardInterrupt:
        bar.close()  # first, so the message gets a line of its own
        print(f"interrupted: {bar.n} games saved in {args.out}", file=sys.stderr)
        return 130
    bar.close()
    return 0

if __name__ == "__main__":
    sys.exit(main())
