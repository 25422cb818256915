"""The rules: new games, legal actions, and the one pure transition ``apply``.

Everything here follows ``RULES.md``. ``apply`` never mutates; it returns a new
:class:`State`. The checks live in ``can_apply``/``why_illegal`` so callers can
ask first; ``apply`` raises :class:`IllegalActionError` naming the action and the
state.
"""

from __future__ import annotations

from collections.abc import Iterable

from .actions import FLEE, FLEE_ID, Action, parse_action_text
from .cards import Card, Kind, parse_deck
from .deal import check_seed, deal
from .errors import DeckError, IllegalActionError
from .state import MAX_HEALTH, State
from .variants import Variant, get_variant

__all__ = [
    "ROOM_SIZE",
    "apply",
    "can_apply",
    "legal_actions",
    "new_game",
    "parse_action",
    "parse_line",
    "play_line",
    "why_illegal",
]

ROOM_SIZE = 4


def new_game(
    seed: int | None = None,
    *,
    deck: str | Iterable[str | Card] | None = None,
    variant: str | Variant = "classic",
    weapon_rule: str | None = None,
    partial: bool = False,
) -> State:
    """The opening state: 20 health, no weapon, the first room of four dealt.

    Give exactly one of ``seed`` (a seeded deal, see :func:`deal`) or ``deck``
    (text or cards, top of the dungeon first). ``partial=True`` accepts a deck
    of fewer than 44 distinct cards (reduced dungeons for tests).
    """
    v = get_variant(variant, weapon_rule)
    if (seed is None) == (deck is None):
        raise DeckError("give exactly one of seed= or deck=")
    cards = tuple(deal(check_seed(seed))) if deck is None else parse_deck(deck, partial=partial)
    n = min(ROOM_SIZE, len(cards))
    return State.from_parts(dungeon=cards[n:], room=cards[:n], variant=v)


def _can_flee(s: State) -> bool:
    v = s.variant
    if not v.may_flee or s.is_over:
        return False
    if len(s.room) != ROOM_SIZE or s.resolved_in_room or not s.dungeon_size:
        return False
    return v.may_flee_twice or not s.fled_last


def legal_actions(s: State) -> tuple[Action, ...]:
    """The legal actions in ascending order (card id order, flee last); empty once over."""
    if s.is_over:
        return ()
    acts: list[int] = []
    for c in s.room:
        acts.append(2 * c.id)
        if c.kind is Kind.MONSTER and s.weapon_can_fight(c.value):
            acts.append(2 * c.id + 1)
    if _can_flee(s):
        acts.append(FLEE_ID)
    return tuple(Action(a) for a in sorted(acts))


def why_illegal(s: State, action: Action | int | str) -> str | None:
    """None if ``action`` is legal in ``s``, else the reason in words."""
    try:
        a = _as_action(action)
    except IllegalActionError as err:
        return str(err)
    if s.is_over:
        return "the game is over"
    if a.is_flee:
        if _can_flee(s):
            return None
        v = s.variant
        if not v.may_flee:
            return f"the {v.name} variant never allows fleeing"
        if s.resolved_in_room or len(s.room) != ROOM_SIZE:
            return "fleeing is only allowed before any card of a full room is resolved"
        if not s.dungeon_size:
            return "fleeing is not allowed when the dungeon is empty"
        return "fleeing twice in a row is not allowed"
    c = a.card
    assert c is not None
    if c not in s.room:
        return f"{c} is not in the room"
    if a.with_weapon:
        if not s.weapon_value:
            return "no weapon is equipped"
        if not s.weapon_can_fight(c.value):
            return f"the weapon's last kill ({s.last_kill}) forbids fighting a {c.value}"
    return None


def can_apply(s: State, action: Action | int | str) -> bool:
    """Whether ``action`` is legal in ``s`` (never raises)."""
    return why_illegal(s, action) is None


def _as_action(action: Action | int | str) -> Action:
    if isinstance(action, Action):
        return action
    if isinstance(action, str):
        return parse_action_text(action)
    if isinstance(action, int) and not isinstance(action, bool):
        return Action(action)
    raise IllegalActionError(f"action {action!r} is not an action")


def parse_action(text: str, s: State) -> Action:
    """Read action text in state ``s``; raises IllegalActionError if it is not legal there."""
    a = parse_action_text(text)
    reason = why_illegal(s, a)
    if reason is not None:
        raise IllegalActionError(f"illegal action {text!r} ({reason}) in state: {s}")
    return a


def apply(s: State, action: Action | int | str) -> State:
    """The state after ``action``; ``s`` itself is unchanged."""
    a = _as_action(action)
    reason = why_illegal(s, a)
    if reason is not None:
        raise IllegalActionError(f"illegal action {str(a)!r} ({reason}) in state: {s}")
    room = list(s.room)
    dungeon = list(s.dungeon)
    v = s.variant
    if a.is_flee:
        # The room goes under the dungeon in room order; a new room comes off the top.
        tape = dungeon + room
        return State.from_parts(
            dungeon=tape[ROOM_SIZE:],
            room=tape[:ROOM_SIZE],
            health=s.health,
            weapon=s.weapon,
            last_kill=s.last_kill,
            fled=True,
            variant=v,
        )
    c = a.card
    assert c is not None
    room.remove(c)
    health = s.health
    weapon = s.weapon
    last_kill = s.last_kill
    potion_used = s.potion_used
    if c.kind is Kind.POTION:
        if not potion_used:
            health = min(MAX_HEALTH, health + c.value)
        potion_used = True
    elif c.kind is Kind.WEAPON:
        weapon, last_kill = c, None
    elif a.with_weapon:
        health -= max(0, c.value - s.weapon_value)
        last_kill = c.value
    else:
        health -= c.value
    resolved = s.resolved_in_room + 1
    over = False
    score = None
    if health <= 0:
        over = True
        score = health - sum(x.value for x in dungeon + room if x.kind is Kind.MONSTER)
    elif not room and not dungeon:
        over = True
        bonus = c.value if c.kind is Kind.POTION and health == MAX_HEALTH else 0
        score = health + bonus
    elif resolved == ROOM_SIZE - 1 and dungeon:
        # Three resolved: the fourth card stays and the room refills from the top.
        draw = ROOM_SIZE - len(room)
        room += dungeon[:draw]
        dungeon = dungeon[draw:]
        resolved = 0
        potion_used = False
    return State.from_parts(
        dungeon=dungeon,
        room=room,
        health=health,
        weapon=weapon,
        last_kill=last_kill,
        potion_used=potion_used,
        resolved=resolved,
        variant=v,
        over=over,
        score=score,
    )


def parse_line(text: str | Iterable[str], s: State) -> list[Action]:
    """Read a line of play (actions separated by spaces) from state ``s``, checking each step."""
    items = text.split() if isinstance(text, str) else list(text)
    acts: list[Action] = []
    for i, t in enumerate(items):
        try:
            a = parse_action(t, s)
        except IllegalActionError as err:
            raise IllegalActionError(f"step {i + 1}: {err}") from None
        acts.append(a)
        s = apply(s, a)
    return acts


def play_line(s: State, line: str | Iterable[str | Action | int]) -> State:
    """The state after playing a whole line from ``s`` (each step checked)."""
    items = line.split() if isinstance(line, str) else list(line)
    for i, t in enumerate(items):
        try:
            s = apply(s, t)
        except IllegalActionError as err:
            raise IllegalActionError(f"step {i + 1}: {err}") from None
    return s


__all__ += ["FLEE"]
