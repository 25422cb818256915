"""A game in progress: a deal and the line played from it, one step at a time.

A :class:`Game` is immutable: :meth:`Game.then` returns the game one action
later. Each keeps the true state (the program needs it to deal the next
room), what the player knows of it (the :class:`InfoState`: the room,
health, weapon, the unseen cards as a set and the fled cards at the bottom;
hints read only this, so they never peek at the dungeon order), the
monsters the held weapon slew and the room number.

>>> import scoundrel_core as sc
>>> g = Game.begin(Deal.seeded(0)).then(sc.FLEE)
>>> g.room, g.line
(2, ['flee'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import scoundrel_core as sc
from scoundrel_core import Action, Card, GameRecord, InfoState, State

from .deal import Deal

__all__ = ["Game", "room_numbers", "starts_room", "weapon_stack"]


def starts_room(a: Action, before: State, after: State) -> bool:
    """Whether ``a`` led into a new room: a flee, or the room's last decision (a refill)."""
    return not after.is_over and (
        a.is_flee or (after.resolved_in_room == 0 and before.resolved_in_room > 0)
    )


def room_numbers(states: Sequence[State], actions: Sequence[Action]) -> list[int]:
    """For each state of a game, the number of the room the player is in (from 1).

    >>> s = sc.new_game(seed=0)
    >>> room_numbers([s, sc.apply(s, sc.FLEE)], [sc.FLEE])
    [1, 2]
    """
    out = [1]
    for a, before, after in zip(actions, states[:-1], states[1:], strict=True):
        out.append(out[-1] + int(starts_room(a, before, after)))
    return out


def weapon_stack(before: tuple[Card, ...], a: Action) -> tuple[Card, ...]:
    """The monsters the held weapon slew (oldest first) after ``a``: a new weapon starts
    an empty stack, a monster fought with the weapon goes on top."""
    c = a.card
    if c is None:
        return before
    if c.is_weapon:
        return ()
    if c.is_monster and a.with_weapon:
        return (*before, c)
    return before


@dataclass(frozen=True)
class Game:
    """A deal played along a line: the true state, what the player knows, the monsters the
    held weapon slew (oldest first) and the room number."""

    deal: Deal
    actions: tuple[Action, ...]
    state: State
    info: InfoState
    stack: tuple[Card, ...]
    room: int
    """Rooms entered so far, this one included (a fled room's replacement counts)."""
    entry: tuple[Card, ...]
    """The room as it was dealt: the carried card first, then the cards drawn, in order.
    Cards resolved since keep their places here, so a player's key for a card (its place,
    from 1) does not change while the room is played."""

    @classmethod
    def begin(cls, deal: Deal) -> Game:
        """The deal before its first action."""
        return cls(deal, (), deal.start, deal.initial_info(), (), 1, deal.start.room)

    @classmethod
    def from_record(cls, record: GameRecord) -> Game:
        """The game a record describes, at its last step (every step checked)."""
        game = cls.begin(Deal.of_record(record))
        for text in record.line:
            game = game.then(sc.parse_action(game.state, text))
        return game

    def then(self, a: Action) -> Game:
        """The game after the legal action ``a`` (an illegal one raises
        :class:`~scoundrel_core.IllegalActionError`)."""
        nxt = sc.apply(self.state, a)
        # the places change only when cards come in (a refill from an empty dungeon
        # brings none: the last cards keep theirs)
        entry = self.entry if set(nxt.room) <= set(self.entry) else nxt.room
        return Game(self.deal, (*self.actions, a), nxt, sc.observe(self.info, a, nxt),
                    weapon_stack(self.stack, a), self.room + int(starts_room(a, self.state, nxt)),
                    entry)

    def place(self, c: Card) -> int:
        """The place of a card of the room as it was dealt, from 1 (its key)."""
        return self.entry.index(c) + 1

    @property
    def line(self) -> list[str]:
        """The actions played, in the project's notation."""
        return [str(a) for a in self.actions]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (won or lost)."""
        return self.state.is_over

    def legal(self) -> tuple[Action, ...]:
        """The legal actions, in the order a player sees them numbered (from 1)."""
        return sc.legal_actions(self.state)

    def record(self) -> GameRecord:
        """The game so far as a game record (``scoundrel-record/1``, checked by replaying)."""
        s = self.deal.start
        return GameRecord.from_play(seed=self.deal.seed, deck=s.room + s.dungeon,
                                    variant=s.variant.name, weapon_rule=s.variant.weapon_rule,
                                    line=self.actions)
