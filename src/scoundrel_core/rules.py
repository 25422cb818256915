"""The rules: new games, legal actions, and the one pure transition ``apply``.

Everything here follows ``docs/rules.md``. ``apply`` never mutates; it returns a
new :class:`State`. The checks live in ``can_apply``/``why_illegal`` so callers
can ask first; ``apply`` raises :class:`IllegalActionError` naming the action and
the state.

One style for both kinds of position: these functions take a :class:`State`
or a fair player's :class:`~scoundrel_core.info.InfoState` alike
(``legal_actions``, ``legal_action_mask``, ``why_illegal``, ``can_apply``,
``parse_action``, ``apply``); on an InfoState, ``apply`` returns an InfoState
or, when cards are drawn, a ChanceNode. A line of play (``parse_line``,
``play_line``) needs the true :class:`State`. Anything else given as a
position raises :class:`StateTextError`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import overload

import numpy as np
import numpy.typing as npt

from .actions import ACTIONS, FLEE, FLEE_ID, NUM_ACTIONS, Action, as_action, parse_action_text
from .cards import FULL_DECK, Card, Kind, parse_deck
from .deal import check_seed, deal
from .encoding import ROOM_SIZE
from .errors import DeckError, IllegalActionError, StateTextError
from .info import ChanceNode, InfoState
from .state import (
    HEALTH_OFFSET,
    MASK_3,
    MASK_4,
    MASK_6,
    SCORE_OFFSET,
    SHIFT_FLED,
    SHIFT_HEALTH,
    SHIFT_LAST_KILL,
    SHIFT_OVER,
    SHIFT_POTION_USED,
    SHIFT_RESOLVED,
    SHIFT_ROOM,
    SHIFT_ROOM_SIZE,
    SHIFT_SCORE,
    SHIFT_VARIANT,
    SHIFT_WEAPON,
    State,
    dealt_state,
)
from .steps import GOES_ON, LOST, WON, death_score, resolve_card, weapon_reach, win_score
from .variants import Variant, get_variant

__all__ = [
    "ROOM_SIZE",
    "apply",
    "apply_trusted",
    "can_apply",
    "legal_action_mask",
    "legal_actions",
    "legal_ids",
    "new_game",
    "parse_action",
    "parse_line",
    "play_line",
    "why_illegal",
]


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
    if deck is not None and not isinstance(deck, (str, Iterable)):
        raise DeckError(f"deck {deck!r} is not card text or a sequence of cards")
    if deck is None:
        # A seeded deal is a shuffle of the full deck, always a valid opening:
        # no checks needed (``dealt_state`` is twinned against ``from_parts``).
        return dealt_state([c.id for c in deal(check_seed(seed))], v)
    cards = parse_deck(deck, partial=partial)
    n = min(ROOM_SIZE, len(cards))
    return State.from_parts(dungeon=cards[n:], room=cards[:n], variant=v)


def _can_flee(s: State) -> bool:
    info = s._info  # read off the packed word: this runs on every step of the env
    return not (info >> SHIFT_OVER) & 1 and Variant.from_code(
        (info >> SHIFT_VARIANT) & MASK_3
    ).allows_flee(
        room_size=(info >> SHIFT_ROOM_SIZE) & MASK_3,
        resolved=(info >> SHIFT_RESOLVED) & MASK_3,
        dungeon_size=info & MASK_6,
        fled_last=bool((info >> SHIFT_FLED) & 1),
    )


# Per card id: kind and value, as plain tuples for the packed-word fast path.
_KIND = tuple(int(c.kind) for c in FULL_DECK)
_VALUE = tuple(c.value for c in FULL_DECK)
_MONSTER = int(Kind.MONSTER)
_ROOM_MASK = (1 << 24) - 1


def legal_ids(s: State) -> list[int]:
    """The legal actions of a State as ascending action ids, read straight off the
    packed words: the fast door for engines (the env) that step a game many times.
    With :func:`apply_trusted` it plays a game without the checks of ``apply``.

    >>> s = new_game(deck="2C 3D 4H 5S 6C", partial=True)
    >>> [str(ACTIONS[a]) for a in legal_ids(s)]
    ['2C/f', '5S/f', '3D', '4H', 'flee']
    """
    info = s._info
    if (info >> SHIFT_OVER) & 1:
        return []
    nr = (info >> SHIFT_ROOM_SIZE) & MASK_3
    room = info >> SHIFT_ROOM
    weapon = (info >> SHIFT_WEAPON) & MASK_4
    last = (info >> SHIFT_LAST_KILL) & MASK_4
    equal = (info >> SHIFT_VARIANT) & 1
    reach = weapon_reach(weapon, last, equal)
    acts: list[int] = []
    for i in range(nr):
        cid = ((room >> (6 * i)) & MASK_6) - 1
        acts.append(2 * cid)
        if _KIND[cid] == _MONSTER and _VALUE[cid] <= reach:
            acts.append(2 * cid + 1)
    if _can_flee(s):
        acts.append(FLEE_ID)
    acts.sort()
    return acts


def _position(s: object) -> State | InfoState:
    """``s`` if it is a State or an InfoState, else a StateTextError naming it."""
    if isinstance(s, (State, InfoState)):
        return s
    raise StateTextError(f"position {s!r:.80} is not a State or an InfoState")


def _info(s: object) -> InfoState:
    """``s`` known not to be a State: an InfoState, or the error of :func:`_position`."""
    p = _position(s)
    assert isinstance(p, InfoState)
    return p


def _state(s: object) -> State:
    if isinstance(s, State):
        return s
    raise StateTextError(f"position {s!r:.80} is not a State (a line needs the true state)")


def legal_actions(s: State | InfoState) -> tuple[Action, ...]:
    """The legal actions in ascending order (card id order, flee last); empty once over."""
    if isinstance(s, State):
        return tuple(ACTIONS[a] for a in legal_ids(s))
    return _info(s).legal_actions()


def legal_action_mask(s: State | InfoState) -> npt.NDArray[np.bool_]:
    """A boolean array of length ``NUM_ACTIONS``, true exactly at the legal actions.

    Works on a :class:`State` and on an :class:`~scoundrel_core.info.InfoState`
    alike (a player's view has the same legal actions as the true position).

    >>> import scoundrel_core as sc
    >>> s = sc.new_game(seed=7)
    >>> mask = sc.legal_action_mask(s)
    >>> [int(a) for a in mask.nonzero()[0]] == [int(a) for a in sc.legal_actions(s)]
    True
    """
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    p = _position(s)
    ids = legal_ids(p) if isinstance(p, State) else [int(a) for a in p.legal_actions()]
    mask[ids] = True
    return mask


def why_illegal(s: State | InfoState, action: Action | int | str) -> str | None:
    """None if ``action`` is legal in ``s``, else the reason in words.

    Raises only if ``s`` is not a position (:class:`StateTextError`).
    """
    s = _position(s)
    try:
        a = as_action(action)
    except IllegalActionError as err:
        return str(err)
    if s.is_over:
        return "the game is over"
    if a.is_flee:
        if s.variant.allows_flee(
            room_size=len(s.room), resolved=s.resolved_in_room, dungeon_size=s.dungeon_size,
            fled_last=s.fled_last,
        ):
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
        if not c.is_monster:
            return f"{c} is not a monster, so it cannot be fought with the weapon"
        if not s.weapon_value:
            return "no weapon is equipped"
        if c.value > s.weapon_reach:
            return f"the weapon's last kill ({s.last_kill}) forbids fighting a {c.value}"
    return None


def can_apply(s: State | InfoState, action: Action | int | str) -> bool:
    """Whether ``action`` is legal in ``s``.

    Any bad action (unreadable text, a number out of range, an object that is
    no action) gives False; only a ``s`` that is not a position raises
    (:class:`StateTextError`), as in every function here.
    """
    return why_illegal(s, action) is None


def parse_action(s: State | InfoState, text: str) -> Action:
    """Read action text in position ``s``; raises IllegalActionError if it is not legal there."""
    s = _position(s)
    a = parse_action_text(text)
    reason = why_illegal(s, a)
    if reason is not None:
        raise IllegalActionError(f"illegal action {text!r} ({reason}) in state: {s.to_text()}")
    return a


@overload
def apply(s: State, action: Action | int | str) -> State: ...


@overload
def apply(s: InfoState, action: Action | int | str) -> InfoState | ChanceNode: ...


def apply(s: State | InfoState, action: Action | int | str) -> State | InfoState | ChanceNode:
    """The position after ``action``; ``s`` itself is unchanged.

    On an InfoState this is :meth:`InfoState.apply <scoundrel_core.info.InfoState.apply>`:
    an InfoState, or a ChanceNode when cards are to be drawn.
    """
    if not isinstance(s, State):
        return _info(s).apply(action)
    a = as_action(action)
    if int(a) not in legal_ids(s):
        reason = why_illegal(s, a) or "not a legal action here"
        raise IllegalActionError(f"illegal action {str(a)!r} ({reason}) in state: {s}")
    return apply_trusted(s, int(a))


def _field(word: int, shift: int, mask: int) -> int:
    return (word >> shift) & mask


def _put(word: int, shift: int, mask: int, value: int) -> int:
    return (word & ~(mask << shift)) | (value << shift)


def apply_trusted(s: State, a: int) -> State:
    """The State after action id ``a``, which the caller took from ``legal_ids(s)``.

    Nothing is checked (that is what makes it fast): an action that is not legal
    here gives a wrong State, not an error. Use :func:`apply` unless the action
    comes from :func:`legal_ids`. It works on the packed words (their layout is in
    :mod:`scoundrel_core.state`); the card itself is resolved by
    :func:`scoundrel_core.steps.resolve_card`, as :meth:`InfoState.apply
    <scoundrel_core.info.InfoState.apply>` resolves it, and the refill it asks for
    takes the next cards of the dungeon.
    """
    dungeon = s._dungeon
    info = s._info
    nd = info & MASK_6
    nr = _field(info, SHIFT_ROOM_SIZE, MASK_3)
    room = _field(info, SHIFT_ROOM, _ROOM_MASK)
    if a == FLEE_ID:
        # The room goes under the dungeon in room order; a new room comes off the top.
        tape = dungeon | (room << (6 * nd))
        info = _put(info, SHIFT_ROOM, _ROOM_MASK, tape & _ROOM_MASK)
        info = _put(info, SHIFT_RESOLVED, MASK_3, 0)
        info = _put(info, SHIFT_POTION_USED, 1, 0)
        info = _put(info, SHIFT_FLED, 1, 1)
        return State(tape >> 24, info)
    cid = a >> 1
    slot = next(i for i in range(nr) if ((room >> (6 * i)) & MASK_6) == cid + 1)
    low = room & ((1 << (6 * slot)) - 1)
    room = low | ((room >> (6 * (slot + 1))) << (6 * slot))
    nr -= 1
    kind = _KIND[cid]
    value = _VALUE[cid]
    health, weapon, last_kill, potion_used, resolved, ending, draw = resolve_card(
        kind, value, a & 1, _field(info, SHIFT_HEALTH, MASK_6) - HEALTH_OFFSET,
        _field(info, SHIFT_WEAPON, MASK_4), _field(info, SHIFT_LAST_KILL, MASK_4),
        _field(info, SHIFT_POTION_USED, 1), _field(info, SHIFT_RESOLVED, MASK_3), nr, nd,
    )
    info = _put(info, SHIFT_WEAPON, MASK_4, weapon)
    info = _put(info, SHIFT_LAST_KILL, MASK_4, last_kill)
    score = 0
    if ending == LOST:
        left = 0
        for word, n in ((dungeon, nd), (room, nr)):
            for i in range(n):
                c = ((word >> (6 * i)) & MASK_6) - 1
                if _KIND[c] == _MONSTER:
                    left += _VALUE[c]
        score = death_score(health, left)
    elif ending == WON:
        score = win_score(health, kind, value)
    elif draw:
        # The refill: the next cards of the dungeon join the room after its last card.
        room |= (dungeon & ((1 << (6 * draw)) - 1)) << (6 * nr)
        dungeon >>= 6 * draw
        nr += draw
        nd -= draw
    info = _put(info, 0, MASK_6, nd)
    info = _put(info, SHIFT_ROOM_SIZE, MASK_3, nr)
    info = _put(info, SHIFT_ROOM, _ROOM_MASK, room)
    info = _put(info, SHIFT_HEALTH, MASK_6, health + HEALTH_OFFSET)
    info = _put(info, SHIFT_POTION_USED, 1, potion_used)
    info = _put(info, SHIFT_RESOLVED, MASK_3, resolved)
    info = _put(info, SHIFT_FLED, 1, 0)
    if ending != GOES_ON:
        info = _put(info, SHIFT_OVER, 1, 1)
        info = _put(info, SHIFT_SCORE, 0x1FF, score + SCORE_OFFSET)
    return State(dungeon, info)


def line_items(line: object) -> list[str | Action | int]:
    """The steps of a line given as text or as a sequence (not checked yet)."""
    if isinstance(line, str):
        return list(line.split())
    if not isinstance(line, Iterable):
        raise IllegalActionError(f"line {line!r} is not text or a sequence of actions")
    return list(line)


def parse_line(s: State, text: str | Iterable[str]) -> list[Action]:
    """Read a line of play (actions separated by spaces) from state ``s``, checking each step."""
    s = _state(s)
    items = line_items(text)
    acts: list[Action] = []
    for i, t in enumerate(items):
        try:
            if not isinstance(t, str):
                raise IllegalActionError(f"action {t!r} is not text")
            a = parse_action(s, t)
        except IllegalActionError as err:
            raise IllegalActionError(f"step {i + 1}: {err}") from None
        acts.append(a)
        s = apply(s, a)
    return acts


def play_line(s: State, line: str | Iterable[str | Action | int]) -> State:
    """The state after playing a whole line from ``s`` (each step checked)."""
    s = _state(s)
    items = line_items(line)
    for i, t in enumerate(items):
        try:
            s = apply(s, t)
        except IllegalActionError as err:
            raise IllegalActionError(f"step {i + 1}: {err}") from None
    return s


__all__ += ["FLEE"]
