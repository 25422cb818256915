"""Fair agents never peek; the baselines behave (the eval command: test_eval_cli.py)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from naive.fair import brute_outcomes, brute_values
from scoundrel_core import FULL_DECK, State
from scoundrel_core.errors import VariantError
from scoundrel_core.info import InfoState, observe
from scoundrel_solver.fair import (
    FairAgent,
    GreedyAgent,
    RandomAgent,
    advise,
    advise_values,
    play_fair,
)
from scoundrel_solver.fair.config import agent_config, configs_with
from scoundrel_solver.fair.leaf import LEAF_WIN_BONUS


def _with_dungeon(s: State, dungeon: list[sc.Card]) -> State:
    return s.with_dungeon(dungeon)


@given(st.integers(0, 10**6), st.integers(6, 12), st.integers(0, 6), st.randoms())
@settings(max_examples=30, deadline=None)
def test_choice_ignores_order_of_unseen_cards(
    seed: int, n_cards: int, steps: int, shuffler: random.Random
) -> None:
    """Two states that differ only in the order of the unseen cards get the same decision."""
    rng = random.Random(seed)
    s = sc.new_game(deck=rng.sample(FULL_DECK, n_cards), partial=True)
    info = InfoState.initial(s)
    for _ in range(steps):
        assume(not s.is_over)
        a = rng.choice(sc.legal_actions(s))
        s2 = sc.apply(s, a)
        info = observe(info, a, s2)
        s = s2
    assume(not s.is_over)
    nb = len(info.bottom)
    d = list(s.dungeon)
    unseen = d[: len(d) - nb]
    shuffled = list(unseen)
    shuffler.shuffle(shuffled)
    other = _with_dungeon(s, shuffled + d[len(d) - nb :])
    info1 = InfoState.from_state(s, info.bottom)
    info2 = InfoState.from_state(other, info.bottom)
    assert info1 == info2 == info
    agent = FairAgent(configs_with(node_budget=20_000))
    assert agent.choose(info1) == FairAgent(configs_with(node_budget=20_000)).choose(info2)
    assert [x[:2] for x in advise(s.to_text() + f" | bottom=[{sc.format_deck(info.bottom)}]")] == [
        x[:2] for x in advise(other.to_text() + f" | bottom=[{sc.format_deck(info.bottom)}]")
    ]


def test_play_fair_small_deck_is_exact_and_legal() -> None:
    s = sc.new_game(deck="9S 3D 5H KC 2C 7H 4S", partial=True)
    g = play_fair(s, agent=FairAgent(configs_with(endgame=0)))  # the search alone: exact on 7 cards
    assert all(g.exact) and len(g.actions) == len(g.exact)
    end = sc.play_line(s, g.line)
    assert end.is_over and end.score == g.score


def test_play_fair_full_deal() -> None:
    g = play_fair(7, agent=FairAgent(configs_with(max_depth=0)))
    end = sc.play_line(sc.new_game(seed=7), g.line)
    assert end.score == g.score and not all(g.exact)


def test_advise_reports_each_action() -> None:
    s = sc.new_game(deck="2C 3C 4C 5C 9H", partial=True)
    adv = advise(s.to_text())
    assert [a for a, _, _ in adv] == [str(a) for a in sc.legal_actions(s)]
    assert all(exact for _, _, exact in adv)
    bonus = int(agent_config(s.variant).win_bonus)  # values: expected score + bonus per win
    for (_, v, _), (_, b) in zip(adv, brute_values(s, win_bonus=bonus), strict=True):
        assert abs(v - float(b)) < 1e-9
    rich = advise_values(s.to_text())
    assert [(str(r.action), r.value, r.exact) for r in rich] == adv
    for r, (_, b, p) in zip(rich, brute_outcomes(s, win_bonus=bonus), strict=True):
        assert abs(r.win_chance - float(p)) < 1e-9
        assert abs(r.expected_score - float(b - bonus * p)) < 1e-9


@pytest.mark.parametrize("variant", ["classic", "easy", "hard"])
def test_baselines_play_legal_games(variant: str) -> None:
    for agent in (GreedyAgent(), RandomAgent(3)):
        for seed in range(3):
            s = sc.new_game(seed=seed, variant=variant)
            info = InfoState.initial(s)
            while not s.is_over:
                a, exact = agent.choose(info)
                assert a in sc.legal_actions(s) and not exact
                s2 = sc.apply(s, a)
                info = observe(info, a, s2)
                s = s2


def test_doctests() -> None:
    import doctest

    import scoundrel_core.info
    import scoundrel_solver.fair.api

    for mod in (scoundrel_core.info, scoundrel_solver.fair.api):
        failed, tried = doctest.testmod(mod)
        assert tried > 0 and failed == 0, mod.__name__


def test_fair_easy_games_end() -> None:
    """easy allows endless flees; the agent never loops once every card is known."""
    agent = FairAgent(configs_with(max_depth=0))
    for seed in range(3):
        g = play_fair(seed, variant="easy", agent=agent)
        assert sc.play_line(sc.new_game(seed=seed, variant="easy"), g.line).score == g.score


def test_seen_is_the_complement_of_unseen() -> None:
    s = sc.new_game(seed=11)
    info = InfoState.initial(s)
    assert info.seen() == frozenset(s.room)
    s2 = sc.apply(s, sc.FLEE)
    info2 = observe(info, sc.FLEE, s2)
    assert info2.seen() == frozenset(s.room) | frozenset(s2.room)


@given(st.integers(0, 2**32), st.integers(1, 30), st.randoms(use_true_random=False))
@settings(max_examples=6, deadline=None)
def test_same_seen_cards_same_decisions_in_full_games(
    seed: int, cut: int, shuffler: random.Random
) -> None:
    """Two full deals that agree on every card seen up to some moment: the shipped agent
    (learned win model included) plays the same actions until what it sees differs."""
    s = sc.new_game(seed=seed)
    info = InfoState.initial(s)
    agent = FairAgent()
    agent.reset(0)
    for _ in range(cut):  # play into the deal; what was seen by now is fixed
        if s.is_over:
            break
        a, _ = agent.choose(info)
        s2 = sc.apply(s, a)
        info, s = observe(info, a, s2), s2
    assume(not s.is_over)
    unseen = list(s.dungeon)[: len(s.dungeon) - len(info.bottom)]
    deck = list(sc.deal(seed))
    slots = sorted(deck.index(c) for c in unseen)  # never dealt: still in deal order
    shuffler.shuffle(unseen)
    for i, c in zip(slots, unseen, strict=True):
        deck[i] = c
    other_start = sc.new_game(deck=deck)

    def decisions(start: State) -> list[tuple[InfoState, sc.Action]]:
        out, st_, inf = [], start, InfoState.initial(start)
        player = FairAgent()
        player.reset(0)
        while not st_.is_over:
            act, _ = player.choose(inf)
            out.append((inf, act))
            nxt = sc.apply(st_, act)
            inf, st_ = observe(inf, act, nxt), nxt
        return out

    one, two = decisions(sc.new_game(seed=seed)), decisions(other_start)
    shared = 0
    for (i1, a1), (i2, a2) in zip(one, two, strict=False):  # the games may differ in length
        if i1 != i2:
            break
        assert a1 == a2, i1.to_text()
        shared += 1
    assert shared >= min(cut, len(one))  # at least the decisions before the cut



@pytest.mark.parametrize(("variant", "bonus"), [
    ("classic/strict", 400.0), ("classic/equal", 400.0),
    ("hard/strict", 100.0), ("hard/equal", 100.0), ("easy/strict", 100.0),
])
def test_each_flee_rule_has_its_win_bonus(variant: str, bonus: float) -> None:
    """Classic plays for the win harder than hard and easy; a config given to the agent
    wins over the variant's, and a bad variant name is refused."""
    info = InfoState.initial(sc.new_game(seed=0, variant=variant))
    assert agent_config(variant).win_bonus == bonus
    assert FairAgent().par_for(info)[LEAF_WIN_BONUS] == bonus
    assert FairAgent(configs_with(win_bonus=7.0)).par_for(info)[LEAF_WIN_BONUS] == 7.0
    one = replace(agent_config(variant), win_bonus=0.0, win_model=None)
    assert FairAgent(one).par_for(info)[LEAF_WIN_BONUS] == 0.0
    with pytest.raises(VariantError, match="unknown variant 'klondike'"):
        agent_config("klondike")
