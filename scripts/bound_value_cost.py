"""What the fair agent's own search value would cost as the bound's ``V`` (docs/bound.md).

Prints the agent's time per position on fresh first rooms (its depth-0 search
while more than 30 cards are unseen) and how many positions the card-by-card
walk of one refill asks ``V`` of (``bound.penalty.Penalties``), so the cost per
chance node is their product.

    python scripts/bound_value_cost.py
"""

from __future__ import annotations

import time

import scoundrel_core as sc
from scoundrel_core.info import ChanceNode, InfoState
from scoundrel_solver.bound.penalty import Penalties
from scoundrel_solver.fair import FairAgent


def main() -> None:
    agent = FairAgent()
    agent.evaluate(InfoState.initial(sc.new_game(seed=0)))  # compiled before timing
    t = time.perf_counter()
    for seed in range(200):
        agent.evaluate(InfoState.initial(sc.new_game(seed=seed)))
    per = (time.perf_counter() - t) / 200
    info = InfoState.initial(sc.new_game(seed=3))
    y: InfoState | ChanceNode = info
    while not isinstance(y, ChanceNode):  # play the first room to its refill
        y = y.apply(y.legal_actions()[0])
    asked = [0]

    def count(_: InfoState) -> float:
        asked[0] += 1
        return 0.0

    Penalties(count).mean(y)
    print(f"agent: {1000 * per:.2f} ms per fresh first room; one refill from "
          f"{len(y.base.unseen)} unseen cards asks V of {asked[0]} positions: "
          f"{per * asked[0]:.0f} s per chance node")


if __name__ == "__main__":
    main()
