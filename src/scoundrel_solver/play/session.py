"""A game in progress: the true states, what the player knows of them, and undo.

The session keeps one entry per step: the true :class:`State` (the program
needs it to deal the next room) and the :class:`InfoState` the player sees
(the room, health, weapon, the unseen cards as a set and the fled rooms at the
bottom). Hints read only the InfoState, so they never peek at the dungeon order.

>>> import scoundrel_core as sc
>>> game = Session(sc.new_game(seed=42, variant="hard"), seed=42)
>>> a = game.read_action("1")
>>> _ = game.play(a)
>>> game.steps, game.undo(), game.steps
(1, 1, 0)
"""

from __future__ import annotations

from collections.abc import Sequence

import scoundrel_core as sc
from scoundrel_core import Action, GameRecord, InfoState, State

from .commands import read_count
from .explain import starts_room

__all__ = ["Session", "room_numbers"]


class Session:
    """One deal being played, step by step, with any number of undos."""

    def __init__(self, start: State, seed: int | None = None) -> None:
        self.seed = seed
        self._states: list[State] = [start]
        self._infos: list[InfoState] = [InfoState.initial(start)]
        self._actions: list[Action] = []

    @classmethod
    def from_record(cls, record: GameRecord) -> Session:
        """The session a record describes, at its last step (every step checked)."""
        game = cls(record.start(), record.seed)
        for text in record.line:
            game.play(sc.parse_action(game.state, text))
        return game

    # -- where the game is ------------------------------------------------------------

    @property
    def start(self) -> State:
        return self._states[0]

    @property
    def start_info(self) -> InfoState:
        return self._infos[0]

    @property
    def state(self) -> State:
        """The true position (the dungeon order included: not for hints)."""
        return self._states[-1]

    @property
    def info(self) -> InfoState:
        """What the player knows of the position."""
        return self._infos[-1]

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    @property
    def steps(self) -> int:
        return len(self._actions)

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def legal(self) -> tuple[Action, ...]:
        """The legal actions, in the order they are numbered (from 1) for the player."""
        return sc.legal_actions(self.state)

    # -- moves ------------------------------------------------------------------------

    def read_action(self, text: str) -> Action:
        """An action typed by the player: its number in :meth:`legal` or its notation.

        Raises :class:`IllegalActionError` with a short reason (no state dump).
        """
        t = text.strip()
        legal = self.legal()
        if not legal:
            raise sc.IllegalActionError("the game is over")
        n = read_count(t)
        if n is not None:
            if not 1 <= n <= len(legal):
                raise sc.IllegalActionError(
                    f"there is no action {sc.excerpt(t, 20)}: choose 1..{len(legal)}"
                )
            return legal[n - 1]
        a = sc.parse_action_text(t)
        reason = sc.why_illegal(self.state, a)
        if reason is not None:
            raise sc.IllegalActionError(f"{sc.excerpt(t)} is not legal here: {reason}")
        return a

    def play(self, action: Action) -> State:
        """Play a legal action; returns the new true state."""
        nxt = sc.apply(self.state, action)
        self._infos.append(sc.observe(self.info, action, nxt))
        self._states.append(nxt)
        self._actions.append(action)
        return nxt

    def undo(self, steps: int = 1) -> int:
        """Take back ``steps`` actions; returns how many were taken back."""
        if steps < 1:
            raise sc.IllegalActionError(f"undo {steps!r}: give a positive number of steps")
        if steps > self.steps:
            raise sc.IllegalActionError(
                f"cannot undo {steps} step{'s' if steps > 1 else ''}: "
                f"only {self.steps} played so far"
            )
        del self._states[-steps:]
        del self._infos[-steps:]
        del self._actions[-steps:]
        return steps

    def record(self) -> GameRecord:
        """The game so far as a :class:`GameRecord` (checked by replaying)."""
        s = self.start
        return GameRecord.from_play(
            seed=self.seed,
            deck=s.room + s.dungeon,
            variant=s.variant.name,
            weapon_rule=s.variant.weapon_rule,
            line=self._actions,
        )

    def room_number(self) -> int:
        """Rooms entered so far, this one included (a fled room's replacement counts)."""
        return room_numbers(self._states, self._actions)[-1]


def room_numbers(states: Sequence[State], actions: Sequence[Action]) -> list[int]:
    """For each state of a game, the number of the room the player is in (from 1).

    >>> import scoundrel_core as sc
    >>> s = sc.new_game(seed=0)
    >>> room_numbers([s, sc.apply(s, sc.FLEE)], [sc.FLEE])
    [1, 2]
    """
    out = [1]
    for a, before, after in zip(actions, states[:-1], states[1:], strict=True):
        out.append(out[-1] + int(starts_room(a, before, after)))
    return out
