"""A game as a request names it: a deal (seed, deck or position text) plus a line.

There is no server-side session. Every page and endpoint gets the deal and the
line of play in its query, and :func:`replay` rebuilds the game from them,
checking each step. Bad input raises :class:`BadInput`, which names the query
field and says what is wrong (the step of the line, and why it is illegal).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlencode

import scoundrel_core as sc
from scoundrel_core import Action, Card, InfoState, State

__all__ = [
    "MAX_LINE_STEPS",
    "BadInput",
    "Deal",
    "Game",
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


@dataclass(frozen=True)
class Deal:
    """Where a game starts: the start position, and what the query said to get there."""

    start: State
    seed: int | None
    deck: str | None
    state_text: str | None
    bottom: tuple[Card, ...] = ()

    def query(self) -> dict[str, str]:
        """The query fields that name this deal (for links)."""
        v = self.start.variant
        if self.state_text is not None:
            return {"state": self.state_text}
        if self.seed is not None:
            return {"seed": str(self.seed), "variant": v.name, "weapon_rule": v.weapon_rule}
        assert self.deck is not None
        return {"deck": self.deck, "variant": v.name, "weapon_rule": v.weapon_rule}

    def initial_info(self) -> InfoState:
        """What the player sees at the start of the deal."""
        return InfoState.from_state(self.start, self.bottom)


@dataclass(frozen=True)
class Game:
    """A deal replayed along a line: where it got to (the true state, what the player
    knows, the monsters the held weapon slew, oldest first, and the room number)."""

    deal: Deal
    actions: tuple[Action, ...]
    state: State
    info: InfoState
    stack: tuple[Card, ...]
    room: int
    """Rooms entered so far, this one included (a fled room's replacement counts)."""

    @property
    def line(self) -> list[str]:
        return [str(a) for a in self.actions]

    def url(self, path: str, line: list[str] | None = None, **extra: str) -> str:
        """A link to ``path`` for this deal with ``line`` (default: the game's own line)."""
        q = self.deal.query()
        steps = self.line if line is None else line
        if steps:
            q["line"] = ",".join(steps)
        q.update(extra)
        return f"{path}?{urlencode(q, safe=',/')}"

    def record(self) -> sc.GameRecord:
        """The game so far as a game record (``scoundrel-record/1``)."""
        s = self.deal.start
        return sc.GameRecord.from_play(seed=self.deal.seed, deck=s.room + s.dungeon,
                                       variant=s.variant.name,
                                       weapon_rule=s.variant.weapon_rule, line=self.actions)


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
        seed = parse_seed(text)
        return Deal(sc.new_game(seed=seed, variant=v), seed, None, None)
    try:
        start = sc.new_game(deck=text, variant=v, partial=True)
    except sc.ScoundrelError as err:
        raise BadInput("deck", str(err)) from None
    if start.is_over or not start.room:
        raise BadInput("deck", "the deck has no cards")
    return Deal(start, None, sc.format_deck(start.room + start.dungeon), None)


def _state_deal(params: Mapping[str, str], text: str) -> Deal:
    try:
        info = InfoState.from_text(text)
        head = text.partition("|")[0].strip()
        start = sc.parse_state(head)
    except sc.ScoundrelError as err:
        raise BadInput("state", str(err)) from None
    for name in ("variant", "weapon_rule"):
        asked = _one(params, name)
        own = start.variant.name if name == "variant" else start.variant.weapon_rule
        if asked is not None and asked != own:
            raise BadInput(name, f"the position is {start.variant}; {name} {asked!r} "
                           "contradicts it")
    return Deal(start, None, None, text, info.bottom)


def parse_line_text(text: str | None) -> list[str]:
    """The steps of a line: actions in the project's notation separated by commas."""
    if text is None:
        return []
    steps = [t.strip() for t in text.replace(" ", ",").split(",")]
    steps = [t for t in steps if t]
    if len(steps) > MAX_LINE_STEPS:
        raise BadInput("line", f"the line has {len(steps)} steps; at most {MAX_LINE_STEPS}")
    return steps


def _weapon_stack(before: tuple[Card, ...], a: Action) -> tuple[Card, ...]:
    c = a.card
    if c is None:
        return before
    if c.is_weapon:
        return ()
    if c.is_monster and a.with_weapon:
        return (*before, c)
    return before


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
    nxt = sc.apply(s, a)
    new_room = not nxt.is_over and (
        a.is_flee or (nxt.resolved_in_room == 0 and s.resolved_in_room > 0))
    return Game(game.deal, (*game.actions, a), nxt, sc.observe(game.info, a, nxt),
                _weapon_stack(game.stack, a), game.room + int(new_room))


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
    game = Game(deal, (), deal.start, deal.initial_info(), (), 1)
    for i, text in enumerate(steps, 1):
        game = _step(game, i, text)
    return game
