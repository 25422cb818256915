"""Hints: the fair agent's values of every legal action, as rows a player reads.

The hint agent is the agent that plays and is measured: ``FairAgent()``
with its variant's defaults, in both front ends. It reads only the
information state (what the player knows), never the true state, so a hint
cannot reveal the order of the dungeon.

A hint row carries the agent's chance of winning and its expected final
score for one action, separately: one number mixing the two (the agent's
utility) means little to a player.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypedDict

from ..fair.agent import ActionValue, FairAgent, choice

if TYPE_CHECKING:
    from scoundrel_core import InfoState

    from .session import Session

__all__ = ["HintRow", "Hints", "best_row", "hint_agent", "hint_rows", "warm_up"]


def hint_agent() -> FairAgent:
    """A new hint agent: the fair agent as it plays and is measured (its variant's
    defaults, read from each information state it is given)."""
    return FairAgent()


class Hints:
    """One hint agent for a whole game, created on the first hint (its kernels load then):
    its memo makes later hints, and hints after an undo, cheaper."""

    def __init__(self) -> None:
        self._agent: FairAgent | None = None

    @property
    def agent(self) -> FairAgent:
        """The game's hint agent (made on first use)."""
        if self._agent is None:
            self._agent = hint_agent()
        return self._agent

    def values(self, game: Session) -> list[ActionValue]:
        """Every legal action's value to the fair agent (expected final score plus the
        win bonus times the chance of winning), in the order of ``game.legal()``."""
        return self.agent.evaluate(game.info)


def warm_up(info: InfoState) -> None:
    """Load the hint agent's kernels with a throwaway hint at ``info``.

    Run in a background thread while a player reads the first room, this takes
    the numba loading (most of a second) out of the first hint. Its own agent:
    the game's may be asked for a hint meanwhile.
    """
    hint_agent().evaluate(info)


class HintRow(TypedDict):
    """One legal action in a hint: its chance of winning, expected score and whether they are
    exact.
    """
    action: str
    win_chance: float
    """0..1, under the agent's own play from here on: the chance shown (calibrated where
    the variant's is, :mod:`scoundrel_solver.fair.value.shown`)."""
    search_win_chance: float
    """The search's own chance (the share of the sampled orders won, in the endgame): what
    the noise of a label is measured on."""
    expected_score: float
    """The expected final score under the agent's own play from here on: the score shown
    (calibrated where the variant's is)."""
    search_expected_score: float
    """The search's own expected score (the sampled orders' mean best score, in the
    endgame): what the agent's choice rests on."""
    value: float
    """The agent's utility (what it maximises), in the search's numbers: its expected score
    plus a win bonus times its chance of winning."""
    exact: bool
    samples: int
    """0: the agent's search. n: the endgame, where the agent samples n dungeon orders and
    solves each as if it were known (optimistic: ``search_win_chance`` is the share won,
    ``win_chance`` the calibrated chance where the variant has one); it then plays the
    action that wins most of them, then the best mean score, rather than the best
    ``value``."""


def hint_rows(values: Sequence[ActionValue]) -> list[HintRow]:
    """Rows for the fair agent's values, in the same order (that of the legal actions)."""
    return [HintRow(action=str(v.action), win_chance=v.win_chance,
                    search_win_chance=v.searched_win_chance,
                    expected_score=v.expected_score,
                    search_expected_score=v.searched_expected_score, value=v.value,
                    exact=v.exact, samples=v.samples)
            for v in values]


def best_row(values: Sequence[ActionValue], info: InfoState) -> HintRow | None:
    """The row of the action the agent plays among ``values`` of ``info`` (None: no legal
    action), by the agent's own rule (:func:`~scoundrel_solver.fair.agent.choice`)."""
    best = choice(info, values)
    return None if best is None else hint_rows([best])[0]
