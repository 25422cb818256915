"""Puzzles: positions where one action clearly keeps the chances of winning.

Two kinds, both shown as what a player sees there (an information state: the
room, health, weapon, the unseen cards as a set, the fled cards at the bottom;
never the order of the dungeon):

- the key moments of the player's own games (:mod:`.review`), kept in the
  browser;
- the daily puzzle (:func:`daily_puzzle`): a position of the fair agent's game
  on a winnable deal of the census, chosen from the date, where the agent's
  choice is clearly best (every other action's chance of winning is lower by a
  blunder's drop, beyond the noise of its samples: :func:`~.labels.judge`) and
  exact solves of sampled dungeon orders agree: the choice wins more of them
  than any other action by :data:`MARGIN` of the orders. The work is bounded:
  :data:`MAX_DEALS` deals, :data:`MAX_CHECKS` candidate positions solved, each
  solve capped at :data:`MAX_NODES` nodes.

An answer is right when it keeps the chances: the agent's choice, or an action
the labels would not mark against it (:func:`answer_label`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import scoundrel_core as sc
from scoundrel_core import Action, InfoState, State

from ..exact.solve import is_winnable
from ..fair.agent import ActionValue, FairAgent, choice
from ..fair.pimc import sample_orders, world
from .deal import Deal
from .game import Game
from .hints import HintRow, hint_agent, hint_rows
from .labels import judge_rows

__all__ = ["MARGIN", "MAX_CHECKS", "MAX_DEALS", "MAX_NODES", "SAMPLES", "DailyPuzzle",
           "answer_label", "daily_puzzle", "order_wins"]

SAMPLES: Final = 16
"""Dungeon orders sampled to check a daily puzzle with the exact solver."""
MARGIN: Final = 4
"""How many more of the sampled orders the answer must win than any other action."""
MAX_DEALS: Final = 6
"""Deals tried for a day's puzzle before giving up."""
MAX_CHECKS: Final = 12
"""Candidate positions checked with the exact solver for a day's puzzle, at most."""
MAX_NODES: Final = 200_000
"""The exact solver's cap per sampled order and action."""
ORDER_SEED: Final = 1
"""The sampling seed of the check (the agent's endgame samples with seed 0: the check's
orders are others)."""


@dataclass(frozen=True)
class DailyPuzzle:
    """A day's puzzle: the position as the player sees it, where it comes from, the answer
    and how it was checked."""

    date: str
    info: InfoState
    seed: int
    step: int
    """The step of the fair agent's game on the seed where the position arises."""
    answer: Action
    rows: tuple[HintRow, ...]
    """The agent's values of every legal action there."""
    wins: dict[str, int]
    """Per legal action, how many of the :attr:`samples` sampled orders it wins, each
    order solved exactly."""
    samples: int

    def to_json(self) -> dict[str, Any]:
        """The puzzle with its answer (the server keeps it; the page gets the position)."""
        return {"date": self.date, "state": self.info.to_text(), "seed": self.seed,
                "step": self.step, "answer": str(self.answer), "rows": list(self.rows),
                "wins": self.wins, "samples": self.samples}


def answer_label(rows: Sequence[HintRow], best: str, answer: str) -> str | None:
    """The label an answer would get against the agent's choice ``best`` (None: it keeps
    the chances, within the noise of the samples)."""
    mine = next(r for r in rows if r["action"] == answer)
    top = next(r for r in rows if r["action"] == best)
    return judge_rows(top, mine)


def order_wins(info: InfoState, actions: Sequence[Action], samples: int = SAMPLES,
               max_nodes: int = MAX_NODES) -> dict[str, int] | None:
    """Per action, how many of ``samples`` sampled orders of the unseen cards it wins with
    the order known (the exact solver); None when a solve hit its cap."""
    wins = {str(a): 0 for a in actions}
    for order in sample_orders(info, samples, seed=ORDER_SEED):
        w = world(info, order)
        for a in actions:
            after = sc.apply(w, a)
            won = after.won if after.is_over else is_winnable(after, max_nodes)
            if won is None:
                return None
            wins[str(a)] += int(won)
    return wins


def _clear(values: Sequence[ActionValue], best: ActionValue) -> float | None:
    """The smallest drop from the agent's choice to another action, when every other
    action would be a blunder beside it; else None."""
    rows = hint_rows(values)
    top = hint_rows([best])[0]
    gaps = []
    for r in rows:
        if r["action"] == top["action"]:
            continue
        if judge_rows(top, r) != "blunder":
            return None
        gaps.append(top["win_chance"] - r["win_chance"])
    return min(gaps) if gaps else None


def _candidates(start: State, agent: FairAgent) -> list[tuple[float, int, InfoState,
                                                             list[ActionValue], Action]]:
    """The fair agent's game on ``start``: each decision where its choice is clear, with the
    smallest gap to another action."""
    out = []
    game = Game.begin(Deal(start))
    agent.reset()
    while not game.is_over:
        values = agent.evaluate(game.info)
        best = choice(game.info, values)
        assert best is not None
        if len(values) > 1:
            gap = _clear(values, best)
            if gap is not None:
                out.append((gap, len(game.actions) + 1, game.info, list(values), best.action))
        game = game.then(best.action)
    return out


def daily_puzzle(date: str, seeds: Sequence[int], agent: FairAgent | None = None,
                 samples: int = SAMPLES) -> DailyPuzzle | None:
    """The puzzle of ``date`` (``YYYY-MM-DD``) from the classic deals of ``seeds`` (the
    census's winnable ones); None if none of :data:`MAX_DEALS` deals gave one.

    Among the clear positions of a deal the hardest is tried first (the smallest gap
    between the agent's choice and the next action), so the puzzle is not the most
    obvious one."""
    if not seeds:
        raise ValueError("no seeds to take a daily puzzle from")
    sc.daily_seed(date)  # a bad date raises here, naming it
    rng = random.Random(f"scoundrel-puzzle|{date}")
    agent = agent if agent is not None else hint_agent()
    checks = 0
    for _ in range(MAX_DEALS):
        seed = seeds[rng.randrange(len(seeds))]
        found = sorted(_candidates(sc.new_game(seed=seed), agent), key=lambda c: (c[0], c[1]))
        for _gap, step, info, values, answer in found:
            if checks >= MAX_CHECKS:
                return None
            checks += 1
            legal = [v.action for v in values]
            wins = order_wins(info, legal, samples)
            if wins is None:
                continue
            mine = wins[str(answer)]
            if all(mine >= wins[str(a)] + MARGIN for a in legal if a != answer):
                return DailyPuzzle(date, info, seed, step, answer, tuple(hint_rows(values)),
                                   wins, samples)
    return None
