"""What the worker processes run: the exact solver, hints and reviews.

Each function takes and returns plain picklable values. A worker keeps one
fair agent per variant (its memo makes the next hint on the same game cheap)
with a memo capped so a long-running server's memory stays flat.
"""

from __future__ import annotations

import os
import time
from typing import Any, Final

import scoundrel_core as sc
import scoundrel_solver
from scoundrel_core import InfoState, State

from ..coach.deal import Deal
from ..coach.game import Game
from ..coach.hints import HintRow, best_row, hint_agent, hint_rows
from ..coach.review import check_reviewable
from ..coach.review import review as coach_review
from ..fair import FairAgent
from ..fair.agent import ranked
from ..fair.api import play_fair
from ..runs.workers import die_with_parent

__all__ = ["MEMO_LIMIT", "daily_puzzle", "fair_score", "hint", "ping", "review", "solve_json",
           "start", "warm"]

MEMO_LIMIT: Final = 200_000
"""Memo entries a worker's fair agent keeps before starting afresh (memory cap)."""

_agents: dict[str, FairAgent] = {}


def _agent(variant: str) -> FairAgent:
    agent = _agents.get(variant)
    if agent is None:
        agent = _agents[variant] = hint_agent()
        agent.memo_limit = MEMO_LIMIT
    return agent


_stops: Any = None


def start(parent: int, stops: Any = None) -> None:
    """A worker's initializer: end with the server (``parent``) however it ends, keep the
    pool's stop flags (``stops``, one per call in flight), then warm."""
    global _stops
    die_with_parent(parent)
    _stops = stops
    warm()


def warm() -> None:
    """Compile (or load from numba's cache) both kernels: run once as the initializer."""
    s = sc.new_game(seed=1)
    scoundrel_solver.solve(s, max_seconds=5.0)
    _agent(str(s.variant)).evaluate(InfoState.initial(s))


def ping() -> int:
    """This worker's process id, a little late so the other workers get pings too."""
    time.sleep(0.05)
    return os.getpid()


def solve_json(start: State | int, variant: str, weapon_rule: str,
               max_seconds: float) -> dict[str, Any]:
    """``scoundrel-solve --json``'s object for a seed or a position."""
    return scoundrel_solver.solve(start, variant=variant, weapon_rule=weapon_rule,
                 max_seconds=max_seconds).to_json()


def hint(info: InfoState) -> tuple[list[HintRow], HintRow | None]:
    """The fair agent's rows for every legal action of ``info``, best first (the row it
    plays first), and the row it plays."""
    values = _agent(str(info.variant)).evaluate(info)
    return hint_rows(ranked(info, values)), best_row(values, info)


def fair_score(seed: int, variant: str, weapon_rule: str) -> int:
    """The fair agent's final score on a seed's deal (it plays it from the start)."""
    agent = _agent(variant)
    agent.reset()
    return play_fair(seed, variant, weapon_rule, agent=agent).score


def review(start: State, line: list[str], bottom: tuple[sc.Card, ...],
           max_seconds: float, state_text: str | None = None,
           slot: int | None = None) -> dict[str, Any]:
    """``/api/review``'s object: the coach's review (:func:`~scoundrel_solver.coach.review.review`)
    of the game, valued by this worker's agent for the variant (``state_text``: the
    position's text, for a deal given as one). With ``slot``, the review stops
    (:class:`~scoundrel_solver.coach.review.ReviewStopped`) once the server raises that
    stop flag: its client left, or the request's time is up."""
    check_reviewable(start, line)  # before the game is rebuilt step by step
    game = Game.begin(Deal(start, state_text=state_text, bottom=bottom))
    for text in line:
        game = game.then(sc.parse_action(game.state, text))
    flags = _stops

    def stop() -> bool:
        return slot is not None and flags is not None and bool(flags[slot])

    return coach_review(game, _agent(str(start.variant)), max_seconds, stop).to_json()


def census_seeds(data_dir: str) -> list[int]:
    """The classic/strict seeds the census proved winnable (``census.parquet`` in
    ``data_dir``); seeds 0-99999 when the file or pyarrow is missing."""
    from pathlib import Path

    try:
        import pyarrow.compute as pc
        import pyarrow.parquet as pq
    except ImportError:
        return list(range(100_000))
    path = Path(data_dir) / "census.parquet"
    if not path.is_file():
        return list(range(100_000))
    t = pq.read_table(path, columns=["variant", "weapon_rule", "seed", "winnable", "proven"])
    keep = pc.and_(pc.and_(pc.equal(t["variant"], "classic"), pc.equal(t["weapon_rule"], "strict")),
                   pc.and_(t["winnable"], t["proven"]))
    return sorted(int(s) for s in t.filter(keep)["seed"].to_pylist())


def daily_puzzle(date: str, data_dir: str) -> dict[str, Any] | None:
    """The day's puzzle (:func:`~scoundrel_solver.coach.puzzles.daily_puzzle`) on the census's
    winnable classic deals, with its answer (the server keeps that part)."""
    from ..coach.puzzles import daily_puzzle as make

    got = make(date, census_seeds(data_dir), _agent("classic/strict"))
    return None if got is None else got.to_json()
