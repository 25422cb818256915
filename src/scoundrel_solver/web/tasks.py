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

from ..fair import FairAgent, play_fair
from .hints import HintRow, best_row, hint_rows
from .labels import LIVE, game_accuracy, label

__all__ = ["MEMO_LIMIT", "hint", "ping", "review", "solve_json", "warm"]

MEMO_LIMIT: Final = 200_000
"""Memo entries a worker's fair agent keeps before starting afresh (memory cap)."""

_agents: dict[str, FairAgent] = {}


def _agent(variant: str) -> FairAgent:
    agent = _agents.get(variant)
    if agent is None:
        agent = _agents[variant] = FairAgent()
        agent.memo_limit = MEMO_LIMIT
    return agent


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
    """The fair agent's rows for every legal action of ``info``, and the row it plays."""
    values = _agent(str(info.variant)).evaluate(info)
    return hint_rows(values), best_row(values)


def _room_starts(start: State, line: list[str]) -> list[dict[str, Any]]:
    """The optimal line cut into rooms: each room's position text and its actions."""
    rooms: list[dict[str, Any]] = [{"state": start.to_text(), "actions": []}]
    s = start
    for text in line:
        a = sc.parse_action(s, text)
        after = sc.apply(s, a)
        rooms[-1]["actions"].append(text)
        new_room = not after.is_over and (
            a.is_flee or (after.resolved_in_room == 0 and s.resolved_in_room > 0))
        if new_room:
            rooms.append({"state": after.to_text(), "actions": []})
        s = after
    return rooms


def review(start: State, line: list[str], bottom: tuple[sc.Card, ...],
           max_seconds: float) -> dict[str, Any]:
    """Three scores, every decision labelled, the accuracy and the optimal line.

    The fair agent values each decision from what the player knew there; the
    exact solver (hindsight: it sees the dungeon) gives the best score and line.
    """
    agent = _agent(str(start.variant))
    decisions: list[dict[str, Any]] = []
    s, info = start, InfoState.from_state(start, bottom)
    for step, text in enumerate(line, 1):
        a = sc.parse_action(s, text)
        legal = sc.legal_actions(s)
        if len(legal) > 1:
            rows, best = hint(info)  # best: the agent's own choice
            mine = next(r for r in rows if r["action"] == str(a))
            assert best is not None
            # the drop is measured against the agent's own move: the agent plays itself
            # without a single label (it trades a little chance of winning for score
            # where its utility says so, and that is its choice, not an error)
            top = max(r["win_chance"] for r in rows)
            low = min(r["win_chance"] for r in rows)
            drop = (max(0.0, best["win_chance"] - mine["win_chance"])
                    if top - low >= LIVE else None)
            decisions.append({
                "step": step, "played": str(a), "agent": best["action"],
                "state": s.to_text(), "rows": rows, "drop": drop,
                "label": None if drop is None else label(drop),
            })
        nxt = sc.apply(s, a)
        info = sc.observe(info, a, nxt)
        s = nxt
    agent.reset()
    fair = play_fair(start, agent=agent)
    best_solve = scoundrel_solver.solve(start, max_seconds=max_seconds)
    drops = [d["drop"] for d in decisions]
    return {
        "player": {"score": s.score, "over": s.is_over, "won": s.won},
        "fair": {"score": fair.score, "won": fair.won, "line": list(fair.actions)},
        "best": best_solve.to_json(),
        "rooms": _room_starts(start, list(best_solve.line)),
        "decisions": decisions,
        "accuracy": game_accuracy(drops),
        "live_decisions": sum(d is not None for d in drops),
    }
