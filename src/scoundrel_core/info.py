"""What a fair player knows: the information state, with chance made explicit.

A fair player sees the room, its health, its weapon and the weapon's last
kill, whether a potion was drunk in this room, whether the room was dealt by
a flee, and every card already seen. It does not see the order of the
dungeon. What it can still say about the dungeon is exactly this::

    dungeon = [unseen cards, in uniformly random order] + [bottom]

``bottom`` is the cards it sent down by fleeing, in the order they went down
(a fled room goes under the dungeon in room order). Every unseen card lies
above them, because cards are only ever drawn from the top and fled rooms are
only ever put at the bottom; once the unseen cards are all drawn, the bottom
comes up in its known order.

:class:`InfoState` is that knowledge as a frozen, hashable value. Build it from
a deal with :meth:`InfoState.initial` and follow a game with :func:`observe`;
or walk the game tree of the information state itself with
:meth:`InfoState.apply`, which returns a :class:`ChanceNode` whenever cards
must be drawn. A chance node lists ``chance_outcomes()`` as ``[(outcome,
probability)]``, an outcome being a card kind and value: two monsters of the
same value are alike, so they are one outcome.

>>> import scoundrel_core as sc
>>> s = sc.new_game(seed=0)
>>> info = InfoState.initial(s)
>>> len(info.unseen), info.bottom
(40, ())
>>> nxt = info.apply(sc.FLEE)
>>> isinstance(nxt, ChanceNode), nxt.to_draw
(True, 4)
>>> observe(info, sc.FLEE, sc.apply(s, sc.FLEE)).bottom == s.room
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction

from .actions import Action, as_action
from .cards import FULL_DECK, Card, Kind, card, parse_card
from .encoding import ROOM_SIZE
from .errors import IllegalActionError, ScoundrelError, StateTextError
from .state import State
from .steps import LOST, WON, death_score, resolve_card, win_score
from .variants import Variant

__all__ = ["ChanceNode", "InfoState", "Outcome", "observe", "parse_info_text"]


Outcome = tuple[Kind, int]
"""A chance outcome: the kind and value of the card drawn."""


def _kind_value(c: Card) -> Outcome:
    return (c.kind, c.value)


@dataclass(frozen=True)
class InfoState:
    """A position as the fair player sees it (a decision node, or an ended game).

    ``unseen`` is the set of cards not yet seen; they are the top
    ``len(unseen)`` cards of the dungeon in an order the player does not know.
    ``bottom`` is the known rest of the dungeon, top first. ``last_kill`` is
    None while the weapon is unused, as on :class:`State`.

    Build one with :meth:`initial`, :meth:`from_state`, :meth:`from_text` or
    :func:`observe`: those check the position (see ``scoundrel_core.position``).
    The plain constructor trusts its fields (the search uses it on every step).
    """

    variant: Variant
    room: tuple[Card, ...]
    health: int
    weapon_value: int
    last_kill: int | None
    potion_used: bool
    resolved_in_room: int
    fled_last: bool
    unseen: frozenset[Card]
    bottom: tuple[Card, ...]
    is_over: bool = False
    score: int | None = None

    # -- building -------------------------------------------------------------------

    @classmethod
    def from_state(cls, s: State, bottom: Iterable[Card] = ()) -> InfoState:
        """What a player knows in ``s`` if the dungeon order is unknown except ``bottom``.

        ``bottom`` must be the last cards of ``s.dungeon`` in order (the fled
        cards the player put there). Only the set of the other dungeon cards is
        used, never their order.
        """
        if not isinstance(s, State):
            raise StateTextError(f"position {s!r:.80} is not a State")
        if not isinstance(bottom, Iterable) or isinstance(bottom, str):
            raise StateTextError(f"bottom {bottom!r:.80} is not a sequence of cards")
        b = tuple(parse_card(c) for c in bottom)
        d = s.dungeon
        if len(b) > len(d) or (b and d[len(d) - len(b) :] != b):
            raise StateTextError(
                f"bottom [{' '.join(map(str, b))}] is not the bottom of the dungeon of {s}"
            )
        return _seen_in(s, frozenset(d[: len(d) - len(b)]), b)

    @classmethod
    def from_text(cls, text: str) -> InfoState:
        """Read ``State text | bottom=[cards]``: see :func:`parse_info_text`."""
        return parse_info_text(text)

    @classmethod
    def initial(cls, s: State) -> InfoState:
        """The knowledge at the start of a game: the whole dungeon is unseen."""
        return cls.from_state(s)

    # -- facts ------------------------------------------------------------------------

    @property
    def dungeon_size(self) -> int:
        return len(self.unseen) + len(self.bottom)

    def seen(self, deck: Iterable[Card] = FULL_DECK) -> frozenset[Card]:
        """The cards of ``deck`` already seen: resolved, in the room, or fled to the bottom."""
        return frozenset(deck) - self.unseen

    @property
    def weapon_reach(self) -> int:
        """The strongest monster the weapon may still fight, 0 without a weapon."""
        return self.variant.weapon_reach(self.weapon_value, self.last_kill)

    def monsters_left(self) -> int:
        """Sum of the monster values in the room and the dungeon (seen or not)."""
        cards = [*self.room, *self.unseen, *self.bottom]
        return sum(c.value for c in cards if c.kind is Kind.MONSTER)

    def can_flee(self) -> bool:
        """Whether the rules allow fleeing this room now."""
        return not self.is_over and self.variant.allows_flee(
            room_size=len(self.room), resolved=self.resolved_in_room,
            dungeon_size=self.dungeon_size, fled_last=self.fled_last,
        )

    def legal_actions(self) -> tuple[Action, ...]:
        """The same actions, in the same order, as ``legal_actions`` of the true state."""
        if self.is_over:
            return ()
        acts: list[int] = []
        reach = self.weapon_reach
        for c in self.room:
            acts.append(2 * c.id)
            if c.kind is Kind.MONSTER and c.value <= reach:
                acts.append(2 * c.id + 1)
        if self.can_flee():
            acts.append(88)
        return tuple(Action(a) for a in sorted(acts))

    # -- the game tree of the information state ------------------------------------------

    def apply(self, action: Action | int | str) -> InfoState | ChanceNode:
        """The position after ``action``: an InfoState, or a ChanceNode if cards are drawn."""
        a = as_action(action)
        if a not in self.legal_actions():
            raise IllegalActionError(
                f"illegal action {str(a)!r} in information state {self.to_text()}"
            )
        if a.is_flee:
            base = replace(
                self,
                room=(),
                potion_used=False,
                resolved_in_room=0,
                bottom=self.bottom + self.room,
            )
            return ChanceNode(base, ROOM_SIZE, fled=True)
        c = a.card
        assert c is not None
        room = tuple(x for x in self.room if x != c)
        kind = int(c.kind)
        health, weapon, last_kill, potion_used, resolved, ending, draw = resolve_card(
            kind, c.value, int(a.with_weapon), self.health, self.weapon_value,
            self.last_kill or 0, int(self.potion_used), self.resolved_in_room, len(room),
            self.dungeon_size,
        )
        nxt = replace(
            self,
            room=room,
            health=health,
            weapon_value=weapon,
            last_kill=last_kill or None,
            potion_used=bool(potion_used),
            resolved_in_room=resolved,
            fled_last=False,
        )
        if ending == LOST:
            return replace(nxt, is_over=True, score=death_score(health, nxt.monsters_left()))
        if ending == WON:
            return replace(nxt, is_over=True, score=win_score(health, kind, c.value))
        if draw:
            return ChanceNode(nxt, draw, fled=False)
        return nxt

    # -- text -------------------------------------------------------------------------------

    def to_text(self) -> str:
        """The info-state text form read by :func:`parse_info_text`.

        It is a ``State.to_text()`` line whose dungeon lists the unseen cards (in
        id order: their order is unknown) and then the known bottom, followed by
        ``| bottom=[...]``.
        """
        lk = self.last_kill
        weapon = f"{self.weapon_value}D" if self.weapon_value else "-"
        last = "-" if not lk else card(lk - 2).rank
        dungeon = sorted(self.unseen, key=lambda c: c.id) + list(self.bottom)
        parts = [
            str(self.variant),
            f"health={self.health}",
            f"weapon={weapon}",
            f"last={last}",
            f"potion={int(self.potion_used)}",
            f"resolved={self.resolved_in_room}",
            f"fled={int(self.fled_last)}",
            f"room=[{' '.join(map(str, self.room))}]",
            f"dungeon=[{' '.join(map(str, dungeon))}]",
        ]
        if self.is_over:
            parts.append(f"score={self.score}")
        return " ".join(parts) + f" | bottom=[{' '.join(map(str, self.bottom))}]"


@dataclass(frozen=True)
class ChanceNode:
    """Cards still to be drawn from the top of the dungeon before the next decision.

    ``base`` is the information state with the cards drawn so far already in
    its room; ``to_draw`` more cards come next. While unseen cards remain the
    next card is a uniformly random unseen card; after that it is the top of
    the known bottom.
    """

    base: InfoState
    to_draw: int
    fled: bool

    def chance_outcomes(self) -> list[tuple[Outcome, float]]:
        """The kind and value of the next card, with probabilities (summing to 1)."""
        return [(o, float(p)) for o, p in self.exact_outcomes()]

    def exact_outcomes(self) -> list[tuple[Outcome, Fraction]]:
        """As :meth:`chance_outcomes`, with exact fractions."""
        b = self.base
        if b.unseen:
            counts = Counter(_kind_value(c) for c in b.unseen)
            n = len(b.unseen)
            return [(o, Fraction(k, n)) for o, k in sorted(counts.items())]
        return [(_kind_value(b.bottom[0]), Fraction(1))]

    def draw(self, outcome: Outcome) -> InfoState | ChanceNode:
        """The position once a card of this kind and value is drawn."""
        b = self.base
        if b.unseen:
            matches = sorted((c for c in b.unseen if _kind_value(c) == outcome), key=lambda c: c.id)
            if not matches:
                raise IllegalActionError(f"no unseen card is a {outcome}")
            c = matches[0]
            nb = replace(b, room=(*b.room, c), unseen=b.unseen - {c})
        else:
            if _kind_value(b.bottom[0]) != outcome:
                raise IllegalActionError(f"the next card is {b.bottom[0]}, not a {outcome}")
            nb = replace(b, room=(*b.room, b.bottom[0]), bottom=b.bottom[1:])
        if self.to_draw > 1:
            return ChanceNode(nb, self.to_draw - 1, self.fled)
        return replace(nb, fled_last=self.fled)


def observe(info: InfoState, action: Action | int | str, new_state: State) -> InfoState:
    """The knowledge after playing ``action`` and seeing the true ``new_state``.

    Uses only what the player sees in ``new_state``: the room, health, weapon
    and flags, and which cards are newly in the room (the dungeon order is never read).
    """
    if not isinstance(info, InfoState) or not isinstance(new_state, State):
        raise StateTextError(
            f"observe needs an InfoState and a State, not {type(info).__name__} "
            f"and {type(new_state).__name__}"
        )
    a = as_action(action)
    bottom = info.bottom + info.room if a.is_flee else info.bottom
    unseen = set(info.unseen)
    old_room = set() if a.is_flee else set(info.room)
    drawn = [c for c in new_state.room if c not in old_room]
    for c in drawn:
        if c in unseen:
            unseen.discard(c)
        elif bottom and bottom[0] == c:
            bottom = bottom[1:]
        else:
            raise IllegalActionError(f"card {c} drawn after {a} was neither unseen nor next")
    return _seen_in(new_state, frozenset(unseen), bottom)


def _seen_in(s: State, unseen: frozenset[Card], bottom: tuple[Card, ...]) -> InfoState:
    """The visible part of ``s`` (everything but the dungeon) with this knowledge of the dungeon."""
    return InfoState(
        variant=s.variant,
        room=s.room,
        health=s.health,
        weapon_value=s.weapon_value,
        last_kill=s.last_kill,
        potion_used=s.potion_used,
        resolved_in_room=s.resolved_in_room,
        fled_last=s.fled_last,
        unseen=unseen,
        bottom=bottom,
        is_over=s.is_over,
        score=s.score,
    )


def parse_info_text(text: str, *, partial: bool = True) -> InfoState:
    """Read ``State text | bottom=[cards]`` (the bottom part is optional).

    Every dungeon card of the state text is unseen (its order is ignored)
    except the ones named in ``bottom``, which must be the last cards of the
    dungeon, in order.
    """
    if not isinstance(text, str):
        raise StateTextError(f"info text {text!r} is not text")
    head, bar, tail = text.partition("|")
    s = State.from_text(head.strip(), partial=partial)
    bottom: tuple[Card, ...] = ()
    try:
        if bar:
            t = tail.strip()
            if not (t.startswith("bottom=[") and t.endswith("]")):
                raise StateTextError("expected '| bottom=[cards]' after the state")
            bottom = tuple(parse_card(x) for x in t[len("bottom=[") : -1].split())
        return InfoState.from_state(s, bottom)
    except ScoundrelError as err:
        raise StateTextError(f"bad info text {text!r}: {err}") from None
