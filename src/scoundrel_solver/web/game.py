"""A game as a request names it: a deal (seed, deck or position text) plus a line.

The deal and the game are the coach's (:mod:`scoundrel_solver.coach`); here
is reading them from a query, and links back to them.

There is no server-side session. Every page and endpoint gets the deal and the
line of play in its query, and :func:`replay` rebuilds the game from them,
checking each step. Bad input raises :class:`BadInput`, which names the query
field and says what is wrong (the step of the line, and why it is illegal).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Final
from urllib.parse import urlencode

import scoundrel_core as sc

from ..coach.deal import Deal
from ..coach.game import Game

__all__ = [
    "MAX_LINE_STEPS",
    "BadInput",
    "link",
    "parse_deal",
    "parse_line_text",
    "parse_seed",
    "replay",
    "replay_fresh",
]

MAX_LINE_STEPS: Final = 2000
"""Longer lines are refused (``easy`` allows endless flees; nobody plays 2000 steps)."""

_DECK_FIELDS: Final = ("seed", "deck", "state")


class BadInput(ValueError):
    """A query field that cannot be used; ``field`` names it (HTTP 400)."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(message)
        self.field = field_name
        self.message = message


def link(game: Game, path: str, line: list[str] | None = None, **extra: str) -> str:
    """A link to ``path`` for the game's deal with ``line`` (default: the game's own line)."""
    q = game.deal.query()
    steps = game.line if line is None else line
    if steps:
        q["line"] = ",".join(steps)
    q.update(extra)
    return f"{path}?{urlencode(q, safe=',/')}"


def _one(params: Mapping[str, str], name: str) -> str | None:
    value = params.get(name)
    if value is None:
        return None
    value = value.strip()
    return value or None


def _variant(params: Mapping[str, str]) -> sc.Variant:
    name = _one(params, "variant") or "classic"
    rule = _one(params, "weapon_rule")
    try:
        return sc.get_variant(name, rule)
    except sc.ScoundrelError as err:
        raise BadInput("weapon_rule" if rule and name in sc.VARIANTS else "variant",
                       str(err)) from None


def parse_seed(text: str) -> int:
    """A seed from query text: a whole number 0..2**64-1."""
    if not (text.isascii() and text.isdigit()) or len(text) > 20:
        raise BadInput("seed", f"seed {text[:40]!r} is not a whole number 0..2**64-1")
    seed = int(text)
    if seed > sc.MAX_SEED:
        raise BadInput("seed", f"seed {text} is out of range 0..2**64-1")
    return seed


def parse_deal(params: Mapping[str, str]) -> Deal:
    """The deal named by exactly one of ``seed``, ``deck`` or ``state`` (with
    ``variant`` and ``weapon_rule`` for a seed or a deck)."""
    given = [f for f in _DECK_FIELDS if _one(params, f) is not None]
    if not given:
        raise BadInput("seed", "give a seed, a deck or a state")
    if len(given) > 1:
        raise BadInput(given[1], f"give only one of seed, deck or state (got {', '.join(given)})")
    kind = given[0]
    text = _one(params, kind)
    assert text is not None
    if kind == "state":
        return _state_deal(params, text)
    v = _variant(params)
    if kind == "seed":
        return Deal.seeded(parse_seed(text), v)
    try:
        return Deal.of_deck(text, v)
    except sc.ScoundrelError as err:
        raise BadInput("deck", str(err)) from None


def _state_deal(params: Mapping[str, str], text: str) -> Deal:
    try:
        deal = Deal.of_position(text)
    except sc.ScoundrelError as err:
        raise BadInput("state", str(err)) from None
    start = deal.start
    for name in ("variant", "weapon_rule"):
        asked = _one(params, name)
        own = start.variant.name if name == "variant" else start.variant.weapon_rule
        if asked is not None and asked != own:
            raise BadInput(name, f"the position is {start.variant}; {name} {asked!r} "
                           "contradicts it")
    return deal


def parse_line_text(text: str | None) -> list[str]:
    """The steps of a line: actions in the project's notation separated by commas."""
    if text is None:
        return []
    steps = [t.strip() for t in text.replace(" ", ",").split(",")]
    steps = [t for t in steps if t]
    if len(steps) > MAX_LINE_STEPS:
        raise BadInput("line", f"the line has {len(steps)} steps; at most {MAX_LINE_STEPS}")
    return steps


def _step(game: Game, i: int, text: str) -> Game:
    s = game.state
    if s.is_over:
        raise BadInput("line", f"line step {i} ({text[:20]!r}): the game is already over")
    try:
        a = sc.parse_action_text(text)
    except sc.ScoundrelError as err:
        raise BadInput("line", f"line step {i} ({text[:20]!r}): {err}") from None
    reason = sc.why_illegal(s, a)
    if reason is not None:
        raise BadInput("line", f"line step {i} ({text[:20]!r}) is illegal: {reason}")
    return game.then(a)


class _Replays:
    """The last games replayed, by deal and line: a move extends a line by one step,
    so its page replays one step from the cached game instead of the whole line.
    Bounded (least recently used out) so the server's memory stays flat."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._games: OrderedDict[tuple[tuple[tuple[str, str], ...], tuple[str, ...]], Game] = (
            OrderedDict())

    def get(self, deal: Deal, steps: tuple[str, ...]) -> Game | None:
        key = (tuple(sorted(deal.query().items())), steps)
        game = self._games.get(key)
        if game is not None:
            self._games.move_to_end(key)
        return game

    def put(self, game: Game, steps: tuple[str, ...]) -> None:
        key = (tuple(sorted(game.deal.query().items())), steps)
        self._games[key] = game
        self._games.move_to_end(key)
        while len(self._games) > self.size:
            self._games.popitem(last=False)


REPLAYS: Final = _Replays(4096)


def replay(deal: Deal, steps: list[str]) -> Game:
    """The game of ``deal`` along ``steps``; an illegal step is a BadInput naming it."""
    key = tuple(steps)
    done = REPLAYS.get(deal, key)
    if done is not None:
        return done
    game = REPLAYS.get(deal, key[:-1]) if key else None
    game = _step(game, len(key), key[-1]) if game is not None else replay_fresh(deal, steps)
    REPLAYS.put(game, key)
    return game


def replay_fresh(deal: Deal, steps: list[str]) -> Game:
    """:func:`replay` without the cache: every step from the start (the slow twin)."""
    game = Game.begin(deal)
    for i, text in enumerate(steps, 1):
        game = _step(game, i, text)
    return game
