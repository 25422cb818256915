"""How much chance of winning the fair agent gives up for score, in its own games.

    python experiments/fair_choice_gap.py --variant classic --seeds 0:100

The agent maximises expected score plus a win bonus times the chance of
winning, so its choice is not always the action with the highest chance of
winning. At every decision of its own games with more than one legal action
this prints how far the chosen action's chance falls below the highest on
offer, in points of percentage (in the classic/strict endgame, PIMC's sampled
chances: there the agent plays the action that wins most, so it gives up
none). The web review measures drops from the agent's choice; docs/web.md
quotes these figures. One JSON object: the
variant, weapon rule, seeds, agent revision, decisions, how many gave up any
chance, the median and largest gap among those, and the seed and position of
the largest.
"""

from __future__ import annotations

import argparse
import json
import statistics

from scoundrel_core import Action
from scoundrel_core.info import InfoState
from scoundrel_solver.fair.agent import ActionValue, FairAgent
from scoundrel_solver.fair.api import play_with
from scoundrel_solver.fair.version import agent_version
from scoundrel_solver.runs.seeds import parse_seed_range


class _Watched(FairAgent):
    """The fair agent, unchanged, keeping each decision's values and choice."""

    def __init__(self) -> None:
        super().__init__()
        self.last: list[ActionValue] = []
        self.seen: list[tuple[Action, list[ActionValue], InfoState]] = []

    def search_values(self, info: InfoState) -> list[ActionValue]:
        # what choose() decides on (evaluate() calibrates the shown chance on top)
        self.last = super().search_values(info)
        return self.last

    def choose(self, info: InfoState) -> tuple[Action, bool]:
        action, exact = super().choose(info)
        if self.in_endgame(info):
            # PIMC's choice does not call evaluate (it scores only where wins tie): ask
            # for every action's sampled values, the ones a hint shows
            self.last = self.sampled_values(info)
        self.seen.append((action, self.last, info))
        return action, exact

    def reset(self, seed: int = 0) -> None:
        super().reset(seed)
        self.seen = []


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="classic")
    p.add_argument("--weapon-rule", default=None)
    p.add_argument("--seeds", default="0:100")
    args = p.parse_args()
    agent = _Watched()
    gaps: list[tuple[float, int, str]] = []
    decisions = 0
    for seed in parse_seed_range(args.seeds):
        play_with(agent, seed, args.variant, args.weapon_rule)
        for action, vals, info in agent.seen:
            if len(vals) < 2:
                continue
            decisions += 1
            chosen = next(v for v in vals if v.action == action)
            gap = 100 * (max(v.win_chance for v in vals) - chosen.win_chance)
            if gap > 1e-9:
                gaps.append((gap, seed, info.to_text()))
    worst = max(gaps, default=(0.0, None, None))
    print(json.dumps({
        "variant": args.variant, "weapon_rule": args.weapon_rule, "seeds": args.seeds,
        "agent_version": agent_version(), "decisions": decisions,
        "gave_up_chance": len(gaps),
        "median_gap_points": round(statistics.median(g for g, _, _ in gaps), 3) if gaps else 0.0,
        "largest_gap_points": round(worst[0], 3), "largest_seed": worst[1],
        "largest_position": worst[2],
    }))


if __name__ == "__main__":
    main()
