"""What a page or the JSON API shows of a game: only what the player can see.

The true dungeon order never leaves the server here: the board holds the
room, health, weapon (with the monsters it slew), the unseen cards counted by
kind, and the fled cards known to lie at the bottom, in order.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

import scoundrel_core as sc
from scoundrel_core import Action, Card, Kind

from ..coach.game import Game
from ..coach.score import explain
from ..coach.words import action_label, rank_of, weapon_reach_text
from .game import link

__all__ = ["board", "card_view"]

SUIT_SYMBOL: Final = {"C": "\u2663", "S": "\u2660", "D": "\u2666", "H": "\u2665"}
KIND_NAME: Final = {Kind.MONSTER: "monster", Kind.WEAPON: "weapon", Kind.POTION: "potion"}


def card_view(c: Card) -> dict[str, Any]:
    """A card as the pages draw it: text, rank, suit and its symbol, colour and kind."""
    return {
        "text": str(c), "rank": c.rank, "suit": c.suit, "symbol": SUIT_SYMBOL[c.suit],
        "colour": "red" if c.suit in "DH" else "black", "kind": KIND_NAME[c.kind],
        "value": c.value,
    }


def _key(game: Game, a: Action, legal: tuple[Action, ...]) -> dict[str, Any]:
    """The key that plays ``a``: ``F`` flees; a card's key is its place in the room as
    dealt (1 to 4 left to right, kept while the room is played). A monster the weapon may
    fight is fought with it by its number, barehanded by Shift and its number."""
    c = a.card
    if c is None:
        return {"n": None, "key": "f", "kbd": "F"}
    n = game.place(c)
    if c.is_monster and not a.with_weapon and any(
            b.card == c and b.with_weapon for b in legal):
        return {"n": n, "key": f"shift+{n}", "kbd": f"\u21e7{n}"}
    return {"n": n, "key": str(n), "kbd": str(n)}


def _score_parts(game: Game) -> dict[str, Any] | None:
    """How the finished game's score came about (None while it runs)."""
    if not game.state.is_over:
        return None
    p = explain(game.state, game.actions[-1] if game.actions else None)
    return {"text": p.text, "health": p.health, "bonus": p.bonus,
            "bonus_card": None if p.bonus_card is None else card_view(p.bonus_card),
            "left": [card_view(c) for c in p.left], "left_total": p.left_total}


def board(game: Game, path: str) -> dict[str, Any]:
    """The position for a template or JSON: cards, health, weapon, dungeon, actions."""
    s, info = game.state, game.info
    legal = sc.legal_actions(s)
    line = game.line
    actions = [{
        **_key(game, a, legal), "action": str(a), "label": action_label(a, s),
        "line": ",".join([*line, str(a)]), "href": link(game, path, [*line, str(a)]),
    } for a in legal]
    by_card: dict[str, list[dict[str, Any]]] = {}
    for row, a in zip(actions, legal, strict=True):
        if a.card is not None:
            by_card.setdefault(str(a.card), []).append(row)
    # under each card, the action its number plays first, the Shift one below it
    room = [{**card_view(c), "actions": sorted(by_card.get(str(c), []),
                                               key=lambda row: row["key"].startswith("shift+"))}
            for c in s.room]
    flee = next((row for row, a in zip(actions, legal, strict=True) if a.is_flee), None)
    kinds = Counter(KIND_NAME[c.kind] for c in info.unseen)
    weapon = s.weapon
    stack = game.stack
    return {
        "health": s.health, "max_health": sc.MAX_HEALTH,
        "health_pct": max(0, min(100, round(100 * s.health / sc.MAX_HEALTH))),
        "room": room,
        "weapon": None if weapon is None else card_view(weapon),
        "slain": [card_view(c) for c in stack],
        "last_kill": None if s.last_kill is None else rank_of(s.last_kill),
        "reach": weapon_reach_text(s),
        "potion_used": s.potion_used,
        "dungeon_size": s.dungeon_size,
        "unseen": {k: kinds.get(k, 0) for k in ("monster", "weapon", "potion")},
        "unseen_total": len(info.unseen),
        "bottom": [card_view(c) for c in info.bottom],
        "actions": actions,
        "flee": flee,
        "flee_reason": None if flee else sc.why_illegal(s, sc.FLEE),
        "step": len(line),
        "line": line,
        "over": s.is_over, "won": s.won, "score": s.score,
        "score_parts": _score_parts(game),
        "variant": str(s.variant),
        "undo_href": link(game, path, line[:-1]) if line else None,
        "restart_href": link(game, path, []),
    }
