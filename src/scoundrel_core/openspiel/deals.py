"""Playing one of our deals in the OpenSpiel game, without letting the player see it.

The deal (a seed of :func:`scoundrel_core.deal`, or any opening
:class:`~scoundrel_core.State`) stays outside the OpenSpiel state: the loop
keeps the true position beside it and, at each chance node, applies the card
the deal draws there. The player (a bot's ``step``) is handed the OpenSpiel
state only, whose content is the information state; its chance nodes list
every unseen card, so a bot that searches samples the future, never reads it.

>>> import pyspiel, scoundrel_core.openspiel
>>> game = pyspiel.load_game("python_scoundrel(variant=hard)")
>>> first = lambda state: state.legal_actions()[0]
>>> played = play_deal(game, first, 7)
>>> played.score == play_line_score(7, "hard", played.actions)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import Action
from ..rules import apply, new_game
from ..state import State

__all__ = ["PlayedDeal", "deal_outcome", "play_deal", "play_line_score"]


@dataclass(frozen=True)
class PlayedDeal:
    """A finished game: the player's actions (notation), the final score, and whether it won."""

    actions: tuple[str, ...]
    score: int
    won: bool


def deal_outcome(true_state: State, spiel_state: Any) -> int:
    """The card id the deal draws at this chance node of the OpenSpiel game.

    ``true_state`` is the deal's position after the player's last action: its
    room already holds the cards the OpenSpiel state is drawing one by one.
    """
    return true_state.room[len(spiel_state.info.room)].id


def play_deal(
    game: Any,
    choose: Callable[[Any], int],
    deal: int | State,
    on_decision: Callable[[Any, int], None] | None = None,
) -> PlayedDeal:
    """Play ``deal`` (a seed or an opening State) to the end with ``choose(state) -> action``.

    ``choose`` gets a copy of the OpenSpiel state at each decision (so a bot
    cannot disturb the game); ``on_decision(state, action)`` is called after each choice.
    """
    variant = game.variant
    true = deal if isinstance(deal, State) else new_game(seed=deal, variant=variant)
    if true.variant != variant:
        raise ValueError(f"deal {true} is not of the game's variant {variant}")
    state = game.new_initial_state()
    actions: list[str] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(deal_outcome(true, state))
            continue
        a = int(choose(state.clone()))
        if on_decision is not None:
            on_decision(state, a)
        true = apply(true, a)
        state.apply_action(a)
        actions.append(str(Action(a)))
    score = true.score
    assert score is not None and score == state.info.score
    return PlayedDeal(tuple(actions), score, true.won)


def play_line_score(seed: int, variant: str, actions: Sequence[str]) -> int | None:
    """The score of playing ``actions`` (notation) on the seeded deal with the library's rules."""
    s = new_game(seed=seed, variant=variant)
    for text in actions:
        s = apply(s, text)
    return s.score
