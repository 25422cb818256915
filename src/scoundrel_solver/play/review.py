"""The review of a played game: what the fair agent and the exact solver say about it.

Three numbers and a list:

- the fair agent's score on the same deal (it plays from the start, seeing
  only what a player sees);
- the best possible score, with an optimal line, from the perfect-information
  solver (it sees the whole dungeon: a review is the only place it is used);
- the player's costliest decisions by the fair agent's values: at each
  decision the agent values every legal action from the information state the
  player had, and the cost is the best value minus the value of the action
  played (zero when the player chose the agent's own choice, or an action it
  valued higher: in the endgame the agent plays by sampled orders won, not by
  value; see :class:`~scoundrel_solver.fair.agent.ActionValue`). Each
  decision also keeps the agent's chance of winning and expected final score
  after the action played and after its own choice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from scoundrel_core import Action, GameRecord, State

from ..exact.result import SolveResult
from ..exact.solve import solve
from ..fair.agent import FairAgent, choice_key
from ..fair.api import FairGame, play_fair
from .session import Session

__all__ = ["TOP_DECISIONS", "Decision", "Review", "decision_costs", "review"]

TOP_DECISIONS: Final = 5
"""How many of the costliest decisions a review lists."""
_TIE: Final = 1e-9  # values equal up to float noise cost nothing


@dataclass(frozen=True)
class Decision:
    """One decision of the player, valued by the fair agent at the player's information."""

    step: int
    """1 for the first action of the game."""
    room: int
    before: State
    played: Action
    choice: Action
    """The action the fair agent values best there (ties: the lowest action)."""
    played_value: float
    choice_value: float
    exact: bool
    """Whether every value the agent gave at this decision was exact."""
    played_win: float = 0.0
    """The agent's chance of winning after the action played (0..1)."""
    choice_win: float = 0.0
    played_score: float = 0.0
    """The agent's expected final score after the action played."""
    choice_score: float = 0.0

    @property
    def cost(self) -> float:
        return max(0.0, self.choice_value - self.played_value)


@dataclass(frozen=True)
class Review:
    """A finished game's review: its record and end, the fair agent's game and the exact best
    on the same deal, and what each decision cost."""
    record: GameRecord
    final: State
    fair: FairGame
    best: SolveResult
    decisions: tuple[Decision, ...]

    @property
    def costliest(self) -> tuple[Decision, ...]:
        """At most :data:`TOP_DECISIONS` decisions that cost something, costliest first."""
        costly = [d for d in self.decisions if d.cost > _TIE]
        costly.sort(key=lambda d: (-d.cost, d.step))
        return tuple(costly[:TOP_DECISIONS])

    @property
    def total_cost(self) -> float:
        return sum(d.cost for d in self.decisions)


def decision_costs(record: GameRecord, agent: FairAgent | None = None) -> list[Decision]:
    """Every decision of the record with more than one legal action, valued by the agent."""
    agent = agent or FairAgent()
    game = Session(record.start(), record.seed)
    out: list[Decision] = []
    for step, text in enumerate(record.line, 1):
        played = game.read_action(text)
        if len(game.legal()) > 1:
            vals = agent.evaluate(game.info)
            best = max(vals, key=choice_key)
            mine = next(v for v in vals if v.action == played)
            out.append(Decision(step, game.room_number(), game.state, played, best.action,
                                mine.value, best.value, all(v.exact for v in vals),
                                mine.win_chance, best.win_chance,
                                mine.expected_score, best.expected_score))
        game.play(played)
    return out

def review(
    record: GameRecord,
    agent_factory: Callable[[], FairAgent] = FairAgent,
    solve_seconds: float | None = 60.0,
) -> Review:
    """The review of a game (finished or not): fair agent, exact best, costly decisions.

    ``solve_seconds`` caps the exact solver; a search stopped there says so
    (``best.proven`` is false) and reports the best line it found.
    """
    start = record.start()
    final = record.final_state
    fair = play_fair(start, agent=agent_factory())
    best = solve(start, variant=record.variant, weapon_rule=record.weapon_rule,
                 max_seconds=solve_seconds)
    decisions = decision_costs(record, agent_factory())
    return Review(record, final, fair, best, tuple(decisions))
