"""The fair agent whose endgame draws more dungeon orders where its choice is close.

    python experiments/pimc_sequential.py --seeds 0:2000 --out arm.jsonl --cap 32 --margin 1
    python experiments/fair_paired.py data/fair-games.parquet arm.jsonl --variant classic

In the endgame the shipped agent is PIMC over a fixed number of sampled orders
(``endgame_samples``, eight under classic/strict), and one order more or less won
often decides between two actions. This agent starts from the same orders and, while
the action with most wins leads the next best by no more than ``--margin`` wins, draws
as many orders again (the next orders of the same generator, so the first ones are
the shipped agent's), up to ``--cap`` orders, for the actions still within ``--margin``
wins of the most (a race: the others drop out). The contenders are compared on the same
orders, and each order is solved once per action whatever the number of rounds. Where
there are no more orders of the unseen cards than ``--cap`` (few cards unseen), every
order is used once, as PIMC does. Outside the endgame it is the agent as shipped.

Rows as ``experiments/fair_ab.py`` writes them (one JSON line per game, resumable), with
``orders``: the mean number of orders tallied at the endgame's decisions of more than one
action.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import scoundrel_core as sc
from scoundrel_core import Action
from scoundrel_core.info import InfoState
from scoundrel_solver.fair.agent import FairAgent
from scoundrel_solver.fair.pimc import (
    ActionTally,
    PimcStats,
    _score,
    _wins,
    best_tally,
    race_actions,
    sample_orders,
    world,
)
from scoundrel_solver.fair.samples import MAX_SAMPLES

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fair_ab import arm_seeds, play, run_arm

MAX_NODES = 2_000_000  # per solve, as the shipped PIMC


def sequential_tallies(info: InfoState, first: int, cap: int, margin: int,
                       stats: PimcStats, drop: bool = True) -> list[ActionTally]:
    """Each legal action's tally over ``first`` orders; then, while more than one action
    is within ``margin`` wins of the most and fewer than ``cap`` orders are tallied, those
    actions (the contenders) are tallied on as many orders again. An action dropped from
    the contenders keeps its tally and can no longer be chosen: its wins stay below every
    contender's, which only grow. Scores are solved only for the contenders tied on most
    wins, as PIMC solves them. With ``drop`` False every action is tallied on every order
    drawn (the orders are drawn by the same rule), as the values a player is shown need:
    that is the agent's own race (:func:`~scoundrel_solver.fair.pimc.race_actions`,
    ``AgentConfig.endgame_cap``), whose solves share a table."""
    acts = info.legal_actions()
    exact = math.factorial(len(info.unseen)) <= cap
    orders = sample_orders(info, cap, 0)
    n = len(orders) if exact else first
    if not drop:  # the agent's own race (AgentConfig.endgame_cap)
        return race_actions(info, orders, n, margin, MAX_NODES, stats)
    results: list[list[tuple[bool, int | None, bool]]] = [[] for _ in acts]
    alive = list(range(len(acts)))
    done = 0
    while True:
        for order in orders[done:n]:
            w = world(info, order)
            for i in alive:
                results[i].append(_wins(sc.apply(w, acts[i]), MAX_NODES, stats))
        done = n
        wins = [sum(won for won, _, _ in row) for row in results]
        top = max(wins[i] for i in alive)
        alive = [i for i in alive if wins[i] >= top - margin]
        if len(alive) == 1 or n >= len(orders):
            break
        n = min(2 * n, len(orders))
    tied = [i for i in alive if wins[i] == top]
    out = []
    for i, (a, row) in enumerate(zip(acts, results, strict=True)):
        unproven = sum(not ok for _, _, ok in row)
        total: int | None = None
        if len(tied) > 1 and i in tied:
            total = 0
            for order, (won, score, ok) in zip(orders, row, strict=False):
                if score is None:
                    score, ok = _score(sc.apply(world(info, order), a), MAX_NODES, stats, won)
                    unproven += not ok
                total += score
        out.append(ActionTally(a, wins[i], total, len(row), unproven))
    return out


class SequentialAgent(FairAgent):
    """The shipped agent, with the endgame's orders drawn on while the choice is close."""

    def __init__(self, cap: int, margin: int, drop: bool = True) -> None:
        super().__init__()
        self.cap = cap
        self.margin = margin
        self.drop = drop
        self.stats = PimcStats()
        self.orders: list[int] = []  # orders tallied at each endgame decision of 2+ actions

    def choose(self, info: InfoState) -> tuple[Action, bool]:
        if not self.in_endgame(info):
            return super().choose(info)
        acts = info.legal_actions()
        known = len(info.unseen) <= 1
        if len(acts) == 1:
            return acts[0], known
        first = self.config_for(info).endgame_samples
        tallies = sequential_tallies(info, first, max(first, self.cap), self.margin, self.stats,
                                     self.drop)
        self.orders.append(max(t.samples for t in tallies))
        return best_tally(tallies).action, known and not any(t.unproven for t in tallies)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", required=True, help="A:B")
    p.add_argument("--variant", default="classic/strict")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--cap", type=int, default=32, help="most orders a decision tallies")
    p.add_argument("--margin", type=int, default=1,
                   help="draw more orders while the lead in wins is at most this")
    p.add_argument("--no-drop", action="store_true",
                   help="tally every action on every order drawn, not the contenders alone")
    args = p.parse_args(argv)
    if not 1 <= args.cap <= MAX_SAMPLES:
        p.error(f"--cap {args.cap}: must be 1-{MAX_SAMPLES}")
    if args.margin < 0:
        p.error(f"--margin {args.margin}: must be 0 or more")
    seeds, done = arm_seeds(p, args)
    agent = SequentialAgent(args.cap, args.margin, drop=not args.no_drop)

    def game(seed: int) -> dict[str, object]:
        agent.orders = []
        row = play(agent, seed, args.variant)
        row["orders"] = round(sum(agent.orders) / len(agent.orders), 2) if agent.orders else 0
        return row

    return run_arm(args.out, seeds, done, game)


if __name__ == "__main__":
    sys.exit(main())
