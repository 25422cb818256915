"""Play the fair agent and the baselines through the gymnasium env, as scoundrel-eval does.

    python examples/evaluate_agents_env.py [--agents fair,greedy,random]
        [--seeds 0:100] [--variant classic] [--weapon-rule strict]

Each agent sees only the observation: :func:`scoundrel_core.env.decode` turns
it back into the information state the agents take (``scoundrel_solver.fair``
agents choose from an ``InfoState``). The episode's return is the final score
and a game is won exactly when the score is positive (a lost game scores at
most 0). On the same seeds the results equal ``scoundrel-eval``'s
(``tests/test_env_agents.py`` checks it).
"""

from __future__ import annotations

import argparse
import statistics
from dataclasses import dataclass
from typing import Any

import gymnasium

import scoundrel_core.env  # noqa: F401  (registers Scoundrel-v0)
from scoundrel_core.env import decode
from scoundrel_solver.fair.api import MAX_ACTIONS, make_agent
from scoundrel_solver.fair.protocol import Agent
from scoundrel_solver.runs.seeds import parse_seed_range


@dataclass(frozen=True)
class EnvGame:
    seed: int
    score: float
    won: bool
    steps: int


def play_in_env(agent: Agent, env: gymnasium.Env, seed: int) -> EnvGame:  # type: ignore[type-arg]
    """One episode of ``env`` on deal ``seed``, the agent choosing from the observation."""
    obs, _ = env.reset(seed=seed)
    agent.reset(seed)
    total, steps, done = 0.0, 0, False
    while not done:
        if steps >= MAX_ACTIONS:
            raise RuntimeError(f"seed {seed}: no end after {MAX_ACTIONS} steps")
        action, _ = agent.choose(decode(obs))
        obs, reward, terminated, truncated, info = env.step(int(action))
        if info["illegal_action"]:
            raise RuntimeError(f"seed {seed}: the agent chose illegal action {action}")
        total += float(reward)
        steps += 1
        done = terminated or truncated
    return EnvGame(seed, total, total > 0, steps)


def evaluate(
    agent_name: str,
    seeds: range,
    variant: str = "classic",
    weapon_rule: str = "strict",
    **opts: Any,
) -> dict[str, float]:
    """Games, wins, win rate and mean score of an agent over ``seeds``, played in the env.

    ``opts`` go to the agent (the fair agent's ``node_budget``, ``max_depth``).
    """
    env = gymnasium.make(
        "scoundrel_core.env:Scoundrel-v0", variant=variant, weapon_rule=weapon_rule
    )
    agent = make_agent(agent_name, **opts)
    games = [play_in_env(agent, env, s) for s in seeds]
    wins = sum(g.won for g in games)
    return {
        "games": len(games),
        "wins": wins,
        "win_rate": wins / len(games),
        "mean_score": statistics.fmean(g.score for g in games),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--agents", default="fair,greedy,random")
    p.add_argument("--seeds", default="0:100")
    p.add_argument("--variant", default="classic")
    p.add_argument("--weapon-rule", default="strict")
    p.add_argument("--depth", type=int, default=None, help="fair: maximum depth (refills)")
    args = p.parse_args(argv)
    seed_range = parse_seed_range(args.seeds)
    seeds = range(seed_range.start, seed_range.stop)
    print(f"{'agent':<8} {'games':>6} {'wins':>6} {'win rate':>9} {'mean score':>11}")
    for name in args.agents.split(","):
        opts = {"max_depth": args.depth} if name == "fair" and args.depth is not None else {}
        r = evaluate(name, seeds, args.variant, args.weapon_rule, **opts)
        print(
            f"{name:<8} {r['games']:>6} {r['wins']:>6} {100 * r['win_rate']:>8.2f}%"
            f" {r['mean_score']:>11.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
