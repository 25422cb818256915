"""The game state: an immutable value over two packed integers.

Bit layout (``_dungeon`` holds the dungeon, ``_info`` everything else)::

    _dungeon   6 bits per card, card id + 1, top of the dungeon in bits 0-5,
               the next card in bits 6-11, ...; 0 past the bottom card

    _info      bits  0- 5  dungeon size                 0..44
               bits  6- 8  room size                    0..4
               bits  9-32  room cards, 6 bits each (id + 1), room order:
                           the carried-over card first, then the drawn cards
               bits 33-38  health + 32                  (health -13..20)
               bits 39-42  weapon value                 0 = none, 2..10
               bits 43-46  last kill value              0 = none yet, 2..14
               bit  47     a potion was drunk in this room
               bits 48-50  cards resolved in this room  0..4
               bit  51     the room was dealt by a flee and nothing of it is
                           resolved yet (classic forbids fleeing it)
               bits 52-54  variant code                 flee rule * 2 + weapon rule
               bit  55     the game is over
               bits 56-64  final score + 256            once over

A weapon is identified by its value (one diamond per value) and the last kill
by its value (only the value matters for wear). Two states are equal exactly
when the game can go on identically from both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

from .cards import FULL_DECK, Card, Kind, card, parse_card
from .encoding import MAX_HEALTH
from .errors import StateTextError, excerpt
from .position import check_position
from .variants import Variant, get_variant

__all__ = ["MAX_HEALTH", "State", "dealt_state"]

SHIFT_DUNGEON_SIZE: Final = 0
SHIFT_ROOM_SIZE: Final = 6
SHIFT_ROOM: Final = 9
SHIFT_HEALTH: Final = 33
SHIFT_WEAPON: Final = 39
SHIFT_LAST_KILL: Final = 43
SHIFT_POTION_USED: Final = 47
SHIFT_RESOLVED: Final = 48
SHIFT_FLED: Final = 51
SHIFT_VARIANT: Final = 52
SHIFT_OVER: Final = 55
SHIFT_SCORE: Final = 56

MASK_6: Final = 0x3F
MASK_3: Final = 0x7
MASK_4: Final = 0xF
MASK_9: Final = 0x1FF
HEALTH_OFFSET: Final = 32
SCORE_OFFSET: Final = 256


def pack_cards(cards: Iterable[Card]) -> int:
    """Cards as 6-bit fields (id + 1), first card lowest."""
    word = 0
    for i, c in enumerate(cards):
        word |= (c.id + 1) << (6 * i)
    return word


def unpack_cards(word: int, n: int) -> tuple[Card, ...]:
    return tuple(FULL_DECK[((word >> (6 * i)) & MASK_6) - 1] for i in range(n))


class State:
    """A Scoundrel position. Immutable and hashable.

    Build one with ``new_game``, :meth:`from_parts` or :meth:`from_text`
    (checked: see :mod:`scoundrel_core.position`), or reach it with ``apply``.
    ``State(dungeon_word, info_word)`` takes the packed words as they are,
    unchecked: it is the fast path of ``apply`` and of unpickling.
    """

    __slots__ = ("_dungeon", "_info")

    _dungeon: int
    _info: int

    def __init__(self, dungeon_word: int, info_word: int) -> None:
        object.__setattr__(self, "_dungeon", dungeon_word)
        object.__setattr__(self, "_info", info_word)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("State is immutable; use scoundrel_core.apply for a new state")

    # -- construction from parts ------------------------------------------------

    @classmethod
    def from_parts(
        cls,
        *,
        dungeon: Sequence[Card | str] | str = (),
        room: Sequence[Card | str] | str = (),
        health: int = MAX_HEALTH,
        weapon: Card | str | None = None,
        last_kill: int | None = None,
        potion_used: bool = False,
        resolved: int = 0,
        fled: bool = False,
        variant: Variant | str = "classic",
        weapon_rule: str | None = None,
        over: bool = False,
        score: int | None = None,
        partial: bool = True,
    ) -> State:
        """Build any position the rules can reach (for tests, puzzles and examples).

        The parts are checked by :func:`~scoundrel_core.position.check_position`:
        a position no game can reach raises :class:`PositionError` naming the
        broken rule. Cards may be :class:`Card` objects or text (a string of
        cards separated by spaces is read too). ``partial=True`` (the default)
        accepts a position of a partial deck, as ``new_game(partial=True)``
        deals; ``partial=False`` also checks the dungeon sizes of a 44-card deal.

        >>> State.from_parts(room="9S 3H", health=4).health
        4
        >>> State.from_parts(room="9S 3H", health=0)
        Traceback (most recent call last):
        ...
        scoundrel_core.errors.PositionError: health 0 out of range 1..20 for a running game \
(at 0 or below it is over)
        """
        v = get_variant(variant, weapon_rule)
        d = _cards("dungeon", dungeon)
        r = _cards("room", room)
        w = None if weapon is None else parse_card(weapon)
        hp, lk, res, pu, fl, ov, sc = check_position(
            variant=v, room=r, dungeon=d, health=health, weapon=w, last_kill=last_kill,
            potion_used=potion_used, resolved=resolved, fled=fled, over=over, score=score,
            partial=partial,
        )
        info = (
            (len(d) << SHIFT_DUNGEON_SIZE)
            | (len(r) << SHIFT_ROOM_SIZE)
            | (pack_cards(r) << SHIFT_ROOM)
            | ((hp + HEALTH_OFFSET) << SHIFT_HEALTH)
            | ((0 if w is None else w.value) << SHIFT_WEAPON)
            | (lk << SHIFT_LAST_KILL)
            | (int(pu) << SHIFT_POTION_USED)
            | (res << SHIFT_RESOLVED)
            | (int(fl) << SHIFT_FLED)
            | (v.code << SHIFT_VARIANT)
            | (int(ov) << SHIFT_OVER)
            | (((sc if sc is not None else 0) + SCORE_OFFSET) << SHIFT_SCORE)
        )
        return cls(pack_cards(d), info)

    def with_dungeon(self, dungeon: Sequence[Card | str]) -> State:
        """The same position with another dungeon (for example the unseen cards reordered)."""
        return State.from_parts(
            dungeon=dungeon,
            room=self.room,
            health=self.health,
            weapon=self.weapon,
            last_kill=self.last_kill,
            potion_used=self.potion_used,
            resolved=self.resolved_in_room,
            fled=self.fled_last,
            variant=self.variant,
            over=self.is_over,
            score=self.score,
        )

    # -- fields -----------------------------------------------------------------

    @property
    def dungeon(self) -> tuple[Card, ...]:
        """The dungeon, top card first."""
        return unpack_cards(self._dungeon, self.dungeon_size)

    @property
    def dungeon_size(self) -> int:
        return (self._info >> SHIFT_DUNGEON_SIZE) & MASK_6

    @property
    def room(self) -> tuple[Card, ...]:
        """The room in room order: the carried-over card first, then drawn cards."""
        n = (self._info >> SHIFT_ROOM_SIZE) & MASK_3
        return unpack_cards(self._info >> SHIFT_ROOM, n)

    @property
    def health(self) -> int:
        return ((self._info >> SHIFT_HEALTH) & MASK_6) - HEALTH_OFFSET

    @property
    def weapon_value(self) -> int:
        """Value of the equipped weapon, 0 when barehanded."""
        return (self._info >> SHIFT_WEAPON) & MASK_4

    @property
    def weapon(self) -> Card | None:
        """The equipped weapon card (the diamond of that value), or None."""
        wv = self.weapon_value
        return parse_card(f"{wv}D") if wv else None

    @property
    def last_kill(self) -> int | None:
        """Value of the last monster the equipped weapon slew, None if it is unused."""
        lk = (self._info >> SHIFT_LAST_KILL) & MASK_4
        return lk or None

    @property
    def potion_used(self) -> bool:
        """Whether a potion was already drunk in this room (another one would not heal)."""
        return bool((self._info >> SHIFT_POTION_USED) & 1)

    @property
    def resolved_in_room(self) -> int:
        return (self._info >> SHIFT_RESOLVED) & MASK_3

    @property
    def fled_last(self) -> bool:
        """Whether this room was dealt by a flee (and nothing of it is resolved yet)."""
        return bool((self._info >> SHIFT_FLED) & 1)

    @property
    def variant(self) -> Variant:
        return Variant.from_code((self._info >> SHIFT_VARIANT) & MASK_3)

    @property
    def is_over(self) -> bool:
        return bool((self._info >> SHIFT_OVER) & 1)

    @property
    def score(self) -> int | None:
        """The final score once the game is over, None while it goes on."""
        if not self.is_over:
            return None
        return ((self._info >> SHIFT_SCORE) & MASK_9) - SCORE_OFFSET

    @property
    def won(self) -> bool:
        return self.is_over and self.health > 0

    @property
    def lost(self) -> bool:
        return self.is_over and self.health <= 0

    def weapon_can_fight(self, monster_value: int) -> bool:
        """Whether the equipped weapon may fight a monster of this value (wear rule)."""
        return 0 < monster_value <= self.weapon_reach

    @property
    def weapon_reach(self) -> int:
        """The strongest monster value the weapon may still fight, 0 without a weapon."""
        return self.variant.weapon_reach(self.weapon_value, self.last_kill)

    def monsters_left(self) -> int:
        """Sum of the values of the monsters in the dungeon and the room."""
        return sum(c.value for c in self.dungeon + self.room if c.kind is Kind.MONSTER)

    # -- value semantics ----------------------------------------------------------

    @property
    def key(self) -> tuple[int, int]:
        """The packed words ``(dungeon word, info word)``: a compact, hashable identity of
        the state, laid out as this module's docstring says. Engines that step many games
        read them directly (with ``rules.legal_ids`` and ``rules.apply_trusted``)."""
        return (self._dungeon, self._info)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self._dungeon == other._dungeon and self._info == other._info

    def __hash__(self) -> int:
        return hash((self._dungeon, self._info))

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        return (State, (self._dungeon, self._info))

    # -- text form ------------------------------------------------------------------

    def to_text(self) -> str:
        """One line that :meth:`from_text` reads back to an equal state.

        Example: ``classic/strict health=12 weapon=8D last=J potion=0 resolved=1
        fled=0 room=[JS 6C 4H] dungeon=[2C 3C]``; an ended game adds ``score=N``.
        """
        lk = self.last_kill
        parts = [
            str(self.variant),
            f"health={self.health}",
            f"weapon={self.weapon or '-'}",
            f"last={'-' if lk is None else card(lk - 2).rank}",
            f"potion={int(self.potion_used)}",
            f"resolved={self.resolved_in_room}",
            f"fled={int(self.fled_last)}",
            f"room=[{' '.join(map(str, self.room))}]",
            f"dungeon=[{' '.join(map(str, self.dungeon))}]",
        ]
        if self.is_over:
            parts.append(f"score={self.score}")
        return " ".join(parts)

    @classmethod
    def from_text(cls, text: str, *, partial: bool = True) -> State:
        """Read the form written by :meth:`to_text`, checked like :meth:`from_parts`.

        A field that cannot be read, or a position the rules cannot reach, raises
        :class:`StateTextError` (:class:`PositionError` for the latter) quoting
        the text and naming the field:

        >>> State.from_text("classic/strict health=20 weapon=- last=- potion=2 "
        ...                 "resolved=0 fled=0 room=[2C 3C] dungeon=[]")
        Traceback (most recent call last):
        ...
        scoundrel_core.errors.StateTextError: bad state text 'classic/strict health=20 \
weapon=- last=- potion=2 resolved=0 fled=0 room=[2C 3C] dungeon=[]': potion must be 0 or 1, got '2'
        """
        if not isinstance(text, str):
            raise StateTextError(f"state text {excerpt(text)} is not text")
        try:
            parts = _read_fields(text)
            return cls.from_parts(**parts, partial=partial)  # type: ignore[arg-type]
        except StateTextError as err:
            raise type(err)(f"bad state text {excerpt(text, _QUOTED)}: {err}") from None
        except ValueError as err:  # a CardError or VariantError from a part
            raise StateTextError(f"bad state text {excerpt(text, _QUOTED)}: {err}") from None

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"State.from_text({self.to_text()!r})"


def dealt_state(ids: Sequence[int], variant: Variant) -> State:
    """The opening state of a deal given as card ids, top first: the first four
    are the room. Unchecked (distinct card ids always make a valid opening), for
    code that deals many games; equal to ``State.from_parts`` of the same cards.
    """
    n = min(4, len(ids))
    room = 0
    for i in range(n):
        room |= (ids[i] + 1) << (6 * i)
    dungeon = 0
    for i in range(n, len(ids)):
        dungeon |= (ids[i] + 1) << (6 * (i - n))
    info = (
        ((len(ids) - n) << SHIFT_DUNGEON_SIZE)
        | (n << SHIFT_ROOM_SIZE)
        | (room << SHIFT_ROOM)
        | ((MAX_HEALTH + HEALTH_OFFSET) << SHIFT_HEALTH)
        | (variant.code << SHIFT_VARIANT)
        | (SCORE_OFFSET << SHIFT_SCORE)
    )
    return State(dungeon, info)


def _cards(name: str, value: object) -> tuple[Card, ...]:
    """A room or dungeon given as cards or card text (one string, or a sequence)."""
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, Sequence):
        raise StateTextError(f"{name} {value!r} is not a sequence of cards")
    return tuple(parse_card(c) for c in value)


_FIELDS: Final = (
    "health", "weapon", "last", "potion", "resolved", "fled", "room", "dungeon", "score",
)
_FIELD_RE: Final = re.compile(r"\s*([A-Za-z_]\w*)=(\[[^\]]*\]|[^\s\[\]]*)")
# ASCII digits only (\d would take other scripts' digits), and few: no field needs more
# than four, and int() refuses strings past 4,300 digits with an error of its own.
_INT_RE: Final = re.compile(r"-?[0-9]{1,18}")
_QUOTED: Final = 300  # a whole-deck position is about 200 characters: quoted whole


def _read_fields(text: str) -> dict[str, object]:
    """The ``from_parts`` arguments of a state text, naming the field that is wrong."""
    head, _, rest = text.strip().partition(" ")
    if not head or "=" in head:
        raise StateTextError("expected the variant first, like 'classic/strict health=20 ...'")
    raw: dict[str, str] = {}
    pos = 0
    rest = rest.rstrip()
    while pos < len(rest):
        m = _FIELD_RE.match(rest, pos)
        if m is None:
            raise StateTextError(f"cannot read {excerpt(rest[pos:].strip())}: expected field=value")
        key, value = m.groups()
        if key not in _FIELDS:
            raise StateTextError(
                f"unknown field {excerpt(key)}; the fields are {', '.join(_FIELDS)}"
            )
        if key in raw:
            raise StateTextError(f"field {key}= given twice")
        raw[key] = value
        pos = m.end()
    missing = [k for k in _FIELDS[:-1] if k not in raw]
    if missing:
        raise StateTextError(f"no {missing[0]}= field (expected the form of State.to_text())")

    def number(key: str) -> int:
        if not _INT_RE.fullmatch(raw[key]):
            raise StateTextError(f"{key} must be an integer, got {excerpt(raw[key])}")
        return int(raw[key])

    def flag(key: str) -> bool:
        if raw[key] not in ("0", "1"):
            raise StateTextError(f"{key} must be 0 or 1, got {excerpt(raw[key])}")
        return raw[key] == "1"

    def cards(key: str) -> list[str]:
        value = raw[key]
        if not (value.startswith("[") and value.endswith("]")):
            raise StateTextError(
                f"{key} must be cards in brackets, like {key}=[7D 5H], got {excerpt(value)}"
            )
        return value[1:-1].split()

    last = raw["last"]
    last_kill = None
    if last != "-":
        try:
            last_kill = parse_card(last + "C").value
        except ValueError:
            raise StateTextError(
                f"last must be - or a monster rank 2..10, J, Q, K, A, got {last!r}"
            ) from None
    if raw["weapon"] == "":
        raise StateTextError("weapon must be - or a diamond like 7D, got ''")
    return {
        "variant": head,
        "health": number("health"),
        "weapon": None if raw["weapon"] == "-" else raw["weapon"],
        "last_kill": last_kill,
        "potion_used": flag("potion"),
        "resolved": number("resolved"),
        "fled": flag("fled"),
        "room": cards("room"),
        "dungeon": cards("dungeon"),
        "over": "score" in raw,
        "score": number("score") if "score" in raw else None,
    }
