"""A game with undo: every step kept, so any number of actions can be taken back.

>>> from scoundrel_core import FLEE
>>> game = Session(Deal.seeded(7, "easy"))  # easy lets a room be fled again at once
>>> _, _ = game.play(FLEE), game.play(FLEE)
>>> game.room_number(), game.undo(2), game.room_number()
(3, 2, 1)
"""

from __future__ import annotations

from typing import TypeVar

import scoundrel_core as sc
from scoundrel_core import Action, GameRecord, InfoState, State

from .deal import Deal
from .game import Game

__all__ = ["Session"]

_S = TypeVar("_S", bound="Session")  # a subclass's from_record makes that subclass


class Session:
    """One deal being played, step by step, with any number of undos."""

    def __init__(self, start: State | Deal, seed: int | None = None) -> None:
        deal = start if isinstance(start, Deal) else Deal(start, seed)
        self._games: list[Game] = [Game.begin(deal)]

    @classmethod
    def from_record(cls: type[_S], record: GameRecord) -> _S:
        """The session a record describes, at its last step (every step checked)."""
        game = cls(Deal.of_record(record))
        for text in record.line:
            game.play(sc.parse_action(game.state, text))
        return game

    # -- where the game is ------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The game at its last step."""
        return self._games[-1]

    @property
    def deal(self) -> Deal:
        """Where the game started."""
        return self._games[0].deal

    @property
    def seed(self) -> int | None:
        """The deal's seed (None for a deck or a position)."""
        return self.deal.seed

    @property
    def start(self) -> State:
        """The start position."""
        return self.deal.start

    @property
    def start_info(self) -> InfoState:
        """What the player saw at the start."""
        return self._games[0].info

    @property
    def state(self) -> State:
        """The true position (the dungeon order included: not for hints)."""
        return self.game.state

    @property
    def info(self) -> InfoState:
        """What the player knows of the position."""
        return self.game.info

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions played so far (undone ones not)."""
        return self.game.actions

    @property
    def steps(self) -> int:
        """How many actions were played so far."""
        return len(self.game.actions)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (won or lost)."""
        return self.game.is_over

    def legal(self) -> tuple[Action, ...]:
        """The legal actions, in the order they are numbered (from 1) for the player."""
        return self.game.legal()

    def room_number(self) -> int:
        """Rooms entered so far, this one included (a fled room's replacement counts)."""
        return self.game.room

    # -- moves ------------------------------------------------------------------------

    def play(self, action: Action) -> State:
        """Play a legal action; returns the new true state."""
        self._games.append(self.game.then(action))
        return self.state

    def undo(self, steps: int = 1) -> int:
        """Take back ``steps`` actions; returns how many were taken back."""
        if steps < 1:
            raise sc.IllegalActionError(f"undo {steps!r}: give a positive number of steps")
        if steps > self.steps:
            raise sc.IllegalActionError(
                f"cannot undo {steps} step{'s' if steps > 1 else ''}: "
                f"only {self.steps} played so far"
            )
        del self._games[-steps:]
        return steps

    def record(self) -> GameRecord:
        """The game so far as a :class:`GameRecord` (checked by replaying)."""
        return self.game.record()
