"""What the review page draws of a review: the key moments as positions, the turning point.

The review itself is the coach's (:mod:`scoundrel_solver.coach.review`, as
``/api/review`` gives it). Here each key moment gets its position drawn as the
play page draws it (:func:`~.view.board`) and the two actions compared, the
one played and the fair agent's, each with its chance of winning and expected
score; and a puzzle: what the player saw there (the information state's text,
which holds the unseen cards as a set, never their order).
"""

from __future__ import annotations

from typing import Any

from ..coach.game import Game
from .game import link
from .view import board, card_view

__all__ = ["key_moments", "turning_view"]


def _row(rows: list[dict[str, Any]], action: str) -> dict[str, Any]:
    return next(r for r in rows if r["action"] == action)


def _how(row: dict[str, Any]) -> str:
    """Whether a chance is exact, sampled (won in n of K orders) or the search's estimate."""
    if row["exact"]:
        return "exact"
    if row["samples"]:
        won = round(row.get("search_win_chance", row["win_chance"]) * row["samples"])
        return f"won in {won} of {row['samples']} sampled orders"
    return "estimated"


def _action_view(b: dict[str, Any], action: str, row: dict[str, Any]) -> dict[str, Any]:
    """An action of a drawn position: its words as on the play page, its card, its numbers."""
    shown = next(a for a in b["actions"] if a["action"] == action)
    card = next((c for c in b["room"] if any(a["action"] == action for a in c["actions"])),
                None)
    return {"action": action, "label": shown["label"], "kbd": shown["kbd"],
            "card": None if card is None else {k: v for k, v in card.items()
                                               if k != "actions"},
            "win_chance": row["win_chance"], "expected_score": row["expected_score"],
            "how": _how(row)}


def key_moments(game: Game, review: dict[str, Any]) -> list[dict[str, Any]]:
    """The review's key moments, each with its position drawn and the two actions compared,
    largest drop first."""
    by_step = {d["step"]: d for d in review["decisions"]}
    at = Game.begin(game.deal)
    positions = {0: at}
    for a in game.actions:
        at = at.then(a)
        positions[len(at.actions)] = at
    out = []
    for step in review["key_moments"]:
        d = by_step[step]
        before = positions[step - 1]
        b = board(before, "/analysis")
        out.append({
            "step": step, "room": d["room"], "label": d["label"], "drop": d["drop"],
            "board": b, "played": _action_view(b, d["played"], _row(d["rows"], d["played"])),
            "agent": _action_view(b, d["agent"], _row(d["rows"], d["agent"])),
            "puzzle": d["info"], "analysis_url": link(game, "/analysis", game.line[:step - 1]),
            "weapon_card": b["weapon"],
        })
    return out


def turning_view(game: Game, review: dict[str, Any]) -> dict[str, Any]:
    """The turning point in words, with the action of its step and the room it left."""
    tp = dict(review["turning_point"])
    step = tp["step"]
    if step is not None:
        before = Game.begin(game.deal)
        for a in game.actions[:step - 1]:
            before = before.then(a)
        tp["action"] = game.line[step - 1]
        tp["room"] = before.room
        tp["cards"] = [card_view(c) for c in before.state.room]
        tp["health"] = before.state.health
        tp["analysis_url"] = link(game, "/analysis", game.line[:step - 1])
    return tp
