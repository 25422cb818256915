"""experiments/fair_choice_gap.py: each decision's values are that decision's, in the
endgame too."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from lab import load_experiment
from scoundrel_core import FULL_DECK
from scoundrel_solver.fair.api import play_with

gap = load_experiment("fair_choice_gap")


@given(st.integers(0, 10**6), st.integers(8, 12))
@settings(max_examples=6, deadline=None)
def test_watched_values_belong_to_their_decision(seed: int, n_cards: int) -> None:
    deck = random.Random(seed).sample(FULL_DECK, n_cards)
    agent = gap._Watched()
    play_with(agent, sc.new_game(deck=deck, partial=True))
    assert agent.seen
    for action, vals, info in agent.seen:
        assert [v.action for v in vals] == list(info.legal_actions())
        chosen = next(v for v in vals if v.action == action)
        if agent.in_endgame(info):  # PIMC plays the action that wins the most orders
            assert chosen.win_chance == max(v.win_chance for v in vals)
