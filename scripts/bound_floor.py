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
"""

from __future__ import annotations

import argparse

import scoundrel_core as sc
from scoundrel_core.info import ChanceNode, InfoState, observe
from scoundrel_solver.exact import is_winnable
from scoundrel_solver.fair import FairAgent
from scoundrel_solver.runs.seeds import parse_seed_range


def fair_then_seen(seed: int, variant: str, steps: int, agent: FairAgent) -> bool:
    """Whether the fair agent, shown the dungeon after ``steps`` chance steps, wins."""
    s = sc.new_game(seed=seed, variant=variant)
    info = InfoState.initial(s)
    agent.reset(seed)
    left = steps
    while not s.is_over:
        if left == 0:
            return bool(is_winnable(s))
        a = agent(info)
        if isinstance(info.apply(a), ChanceNode):
            left -= 1
        s2 = sc.apply(s, a)
        info, s = observe(info, a, s2), s2
    return bool(s.health > 0)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seeds", type=parse_seed_range, default=parse_seed_range("0:200"))
    p.add_argument("--variant", default="classic")
    p.add_argument("--steps", type=int, nargs="+", default=[1, 2, 3])
    args = p.parse_args()
    agent = FairAgent()
    seen = sum(bool(is_winnable(sc.new_game(seed=seed, variant=args.variant)))
               for seed in args.seeds)
    print(f"{args.variant}: the dungeon seen from the start: {seen}/{args.seeds.count} = "
          f"{100 * seen / args.seeds.count:.2f}%", flush=True)
    for k in args.steps:
        won = sum(fair_then_seen(seed, args.variant, k, agent) for seed in args.seeds)
        n = args.seeds.count
        print(f"{args.variant}: fair for {k} chance steps, then the dungeon seen: "
              f"{won}/{n} = {100 * won / n:.2f}%", flush=True)


if __name__ == "__main__":
    main()
