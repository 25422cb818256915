"""The review of a played game: what the fair agent and the exact solver say about it.

Three scores and a judgement of each decision:

- the player's score (or that the game is not finished);
- the fair agent's score on the same deal (it plays from the start, seeing
  only what a player sees);
- the best possible score, with an optimal line cut into rooms, from the
  perfect-information solver (it sees the whole dungeon: a review is the only
  place it is used);
- at each decision of the player (a position with more than one legal
  action) the hint agent values every legal action from what the player
  knew there; the decision is judged by the drop in its chance of winning
  against the agent's own choice, labelled and scored for accuracy by
  :mod:`.labels`. Each decision keeps the rows, so the chance of winning and
  the expected final score of the action played and of the agent's choice;
- the key moments: at most :data:`KEY_MOMENTS` labelled decisions, the largest
  drops first (a drop within the noise of the agent's samples is not labelled);
- the hindsight turning point (:mod:`.hindsight`): the first decision after
  which even perfect play could no longer win.

The fair agent's game on a deal is kept (:data:`FAIR_CACHE` deals, the most
recent), so reviewing the same deal again does not replay it.

Both front ends show this one review: ``scoundrel-play`` as text,
``scoundrel-web`` as a page and as ``/api/review`` (:meth:`Review.to_json`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final

import scoundrel_core as sc
from scoundrel_core import Action, InfoState, State

from ..exact.result import SolveResult
from ..exact.solve import solve
from ..fair.agent import FairAgent
from ..fair.api import FairGame, play_fair
from .game import Game, starts_room
from .hindsight import UNKNOWN, TurningPoint, turning_point
from .hints import HintRow, best_row, hint_agent, hint_rows
from .labels import drop, game_accuracy, judge_rows

__all__ = ["FAIR_CACHE", "KEY_MOMENTS", "LABELS", "MAX_DECISIONS", "TOP_DECISIONS",
           "Decision", "Review", "ReviewStopped", "ReviewTooLong", "check_reviewable",
           "fair_game", "optimal_rooms", "review"]

KEY_MOMENTS: Final = 3
"""How many key moments a review shows at most (both front ends)."""
TOP_DECISIONS: Final = KEY_MOMENTS
"""The same: the worst decisions are the key moments."""
FAIR_CACHE: Final = 256
"""Deals whose fair agent's game is kept."""
LABELS: Final = ("inaccuracy", "mistake", "blunder")
"""The labels, mildest first."""
MAX_DECISIONS: Final = 300
"""The most decisions (positions with more than one legal action) one review values.
Each costs the hint agent a search; a game has fewer than 60 unless it flees room
after room (only ``easy`` allows that), so only such a line is refused, before any
decision is valued."""


class ReviewTooLong(sc.ScoundrelError):
    """A game with more decisions than a review values (:data:`MAX_DECISIONS`)."""


class ReviewStopped(Exception):
    """The review was asked to stop (its caller's deadline passed, or nobody waits for it)."""


def check_reviewable(start: State, line: Iterable[Action | str]) -> int:
    """The number of decisions of ``line`` played from ``start``; a :class:`ReviewTooLong`
    if that is more than :data:`MAX_DECISIONS`. Replays the rules only (no search), so a
    long line costs milliseconds per thousand actions."""
    s, decisions = start, 0
    for step in line:
        a = sc.parse_action(s, step) if isinstance(step, str) else step
        decisions += len(sc.legal_actions(s)) > 1
        s = sc.apply(s, a)
    if decisions > MAX_DECISIONS:
        raise ReviewTooLong(f"the game has {decisions:,} decisions; a review values at most "
                            f"{MAX_DECISIONS:,} (a line that flees room after room)")
    return decisions


@dataclass(frozen=True)
class Decision:
    """One decision of the player, valued by the hint agent at the player's information."""

    step: int
    """1 for the first action of the game."""
    room: int
    before: State
    info: InfoState
    """What the player knew there (the puzzle's position: no dungeon order)."""
    played: Action
    choice: Action
    """The agent's own choice there (:func:`~.hints.best_row`)."""
    rows: tuple[HintRow, ...]
    """Every legal action's row, in the order of the legal actions."""
    drop: float | None
    """The agent's chance of winning of its choice minus that of the action played (never
    below 0); None where the decision is not live (every action wins about as often)."""

    @property
    def label(self) -> str | None:
        """``inaccuracy``, ``mistake``, ``blunder`` or None (see :mod:`.labels`): None
        too where the drop is within the noise of the agent's sampled chances."""
        if self.drop is None:
            return None
        mine, best = self.row(self.played), self.row(self.choice)
        return judge_rows(best, mine)

    def row(self, a: Action) -> HintRow:
        """The row of the legal action ``a``."""
        return next(r for r in self.rows if r["action"] == str(a))

    @property
    def exact(self) -> bool:
        """Whether every value the agent gave at this decision was exact."""
        return all(r["exact"] for r in self.rows)

    def to_json(self) -> dict[str, Any]:
        """The decision as ``/api/review`` gives it."""
        return {"step": self.step, "played": str(self.played), "agent": str(self.choice),
                "state": self.before.to_text(), "info": self.info.to_text(),
                "room": self.room, "rows": list(self.rows), "drop": self.drop,
                "label": self.label}


@dataclass(frozen=True)
class Review:
    """A game's review: the game as played, the fair agent's game and the exact best on the
    same deal, and every decision judged."""

    game: Game
    fair: FairGame
    best: SolveResult
    decisions: tuple[Decision, ...]
    turning: TurningPoint

    @property
    def final(self) -> State:
        """Where the reviewed game got to (the true state)."""
        return self.game.state

    @property
    def drops(self) -> list[float | None]:
        """Each decision's drop (None: not live)."""
        return [d.drop for d in self.decisions]

    @property
    def accuracy(self) -> float | None:
        """Mean accuracy (percent) over the live decisions; None when none was live."""
        return game_accuracy(self.drops)

    @property
    def live_decisions(self) -> int:
        """How many decisions count in the accuracy."""
        return sum(d is not None for d in self.drops)

    def counts(self) -> dict[str, int]:
        """How many decisions got each label, mildest first."""
        got = [d.label for d in self.decisions]
        return {k: got.count(k) for k in LABELS}

    @property
    def key_moments(self) -> tuple[Decision, ...]:
        """At most :data:`KEY_MOMENTS` labelled decisions, the largest drop first (the
        earlier of equal drops first)."""
        bad = [d for d in self.decisions if d.label is not None]
        bad.sort(key=lambda d: (-(d.drop or 0.0), d.step))
        return tuple(bad[:KEY_MOMENTS])

    @property
    def worst(self) -> tuple[Decision, ...]:
        """The key moments (:attr:`key_moments`)."""
        return self.key_moments

    def to_json(self) -> dict[str, Any]:
        """The review as ``/api/review`` gives it."""
        s = self.final
        return {
            "player": {"score": s.score, "over": s.is_over, "won": s.won},
            "fair": {"score": self.fair.score, "won": self.fair.won,
                     "line": list(self.fair.actions), "decisions": len(self.fair.exact)},
            "best": self.best.to_json(),
            "rooms": optimal_rooms(self.game.deal.start, list(self.best.line)),
            "decisions": [d.to_json() for d in self.decisions],
            "key_moments": [d.step for d in self.key_moments],
            "turning_point": self.turning.to_json(),
            "accuracy": self.accuracy,
            "live_decisions": self.live_decisions,
        }


def optimal_rooms(start: State, line: list[str]) -> list[dict[str, Any]]:
    """A line cut into rooms: each room's position text and its actions."""
    rooms: list[dict[str, Any]] = [{"state": start.to_text(), "actions": []}]
    s = start
    for text in line:
        a = sc.parse_action(s, text)
        after = sc.apply(s, a)
        rooms[-1]["actions"].append(text)
        if starts_room(a, s, after):
            rooms.append({"state": after.to_text(), "actions": []})
        s = after
    return rooms


def _never() -> bool:
    return False


def review(game: Game, agent: FairAgent | None = None,
           solve_seconds: float | None = 60.0, stop: Callable[[], bool] = _never) -> Review:
    """The review of a game (finished or not).

    ``agent``: the hint agent to value the decisions with and to play the deal
    (a new :func:`~.hints.hint_agent` by default; its memo is reset before it
    plays). ``solve_seconds`` caps the exact solver; a search stopped there
    says so (``best.proven`` is false) and reports the best line it found.
    A game of more than :data:`MAX_DECISIONS` decisions is a :class:`ReviewTooLong`,
    before any is valued. ``stop`` is asked before each decision and each part of
    the review; once it says yes, :class:`ReviewStopped` is raised.
    """
    check_reviewable(game.deal.start, game.actions)
    agent = agent if agent is not None else hint_agent()
    decisions: list[Decision] = []
    at = Game.begin(game.deal)
    for a in game.actions:
        if len(at.legal()) > 1:
            if stop():
                raise ReviewStopped("stopped before every decision was valued")
            values = agent.evaluate(at.info)
            best = best_row(values, at.info)
            assert best is not None
            rows = tuple(hint_rows(values))
            mine = next(r for r in rows if r["action"] == str(a))
            lost = drop(best["win_chance"], mine["win_chance"], [r["win_chance"] for r in rows])
            decisions.append(Decision(len(at.actions) + 1, at.room, at.state, at.info, a,
                                      sc.parse_action_text(best["action"]), rows, lost))
        at = at.then(a)
    start = game.deal.start
    if stop():
        raise ReviewStopped("stopped before the fair agent played the deal")
    fair = fair_game(start, agent)
    if stop():
        raise ReviewStopped("stopped before the exact solve")
    best_solve = solve(start, max_seconds=solve_seconds)
    # a position given as what a player saw (its unseen cards a set) has no known order
    known = game.deal.state_text is None or "|" not in game.deal.state_text
    turning = turning_point(start, game.actions) if known else UNKNOWN
    return Review(game, fair, best_solve, tuple(decisions), turning)


_fair_games: OrderedDict[str, FairGame] = OrderedDict()


def fair_game(start: State, agent: FairAgent | None = None) -> FairGame:
    """The fair agent's game on the deal of ``start`` (its memo reset first, so the game
    is the same whichever agent plays it), kept for the :data:`FAIR_CACHE` deals asked
    most recently."""
    key = start.to_text()
    got = _fair_games.get(key)
    if got is not None:
        _fair_games.move_to_end(key)
        return got
    agent = agent if agent is not None else hint_agent()
    agent.reset()
    got = _fair_games[key] = play_fair(start, agent=agent)
    while len(_fair_games) > FAIR_CACHE:
        _fair_games.popitem(last=False)
    return got
