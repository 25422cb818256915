"""The fair agent's endgame: from its config's ``endgame`` unseen cards down to one it is PIMC.

Its two parts are tested on their own elsewhere (the search against its twins in
test_fair_search, PIMC against a brute force in test_pimc); here the agent must
choose exactly as the part of the moment does, its sampled values must equal a
plain recount by exact solves, and it must not see more than a player does.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from scoundrel_core.info import InfoState
from scoundrel_solver.cli.render import print_advice
from scoundrel_solver.coach.hints import best_row, hint_rows
from scoundrel_solver.errors import SolverError
from scoundrel_solver.exact.solve import solve_value
from scoundrel_solver.fair.agent import FairAgent, choice_key
from scoundrel_solver.fair.config import AgentConfig, agent_config, configs_with
from scoundrel_solver.fair.pimc import PimcAgent, sample_orders, world
from scoundrel_solver.play.render import Palette, render_hint
from scoundrel_solver.play.session import Session
from test_pimc import _walk

ENDGAME = agent_config("classic/strict").endgame
ENDGAME_SAMPLES = agent_config("classic/strict").endgame_samples
NO_RACE = {"endgame_cap": 0, "endgame_scored": 0, "endgame_score_margin": math.inf}
"""The endgame without its race: ``endgame_samples`` orders, every one scored."""


def _as_played(variant: str = "classic/strict") -> PimcAgent:
    """PIMC as ``variant``'s row plays its endgame: its orders, and its race where it has
    one (a cap or a scored count of 0 is none)."""
    c = agent_config(variant)
    return PimcAgent(samples=c.endgame_samples, seed=0, cap=c.endgame_cap or None,
                     margin=c.endgame_margin, scored=c.endgame_scored or None,
                     score_margin=c.endgame_score_margin)


def _orders_drawn(variant: str) -> range:
    """How many orders a decision of ``variant``'s endgame may rest on."""
    c = agent_config(variant)
    return range(c.endgame_samples, max(c.endgame_samples, c.endgame_cap) + 1)


def _deep(seed: int, unseen: int, variant: str = "classic") -> InfoState:
    """A position of a full deal of ``variant`` with ``unseen`` cards left in the dungeon
    (in random order, none fled), a fresh room of four and a random health and weapon:
    the rest of the deck is gone."""
    rng = random.Random(seed)
    deal = sc.new_game(seed=seed, variant=variant)
    cards = [*deal.room, *deal.dungeon]
    rng.shuffle(cards)
    room, dungeon = cards[:4], cards[4:4 + unseen]
    weapons = [c for c in cards[4 + unseen:] if c.kind == sc.Kind.WEAPON]
    weapon = rng.choice(weapons) if weapons and rng.random() < 0.8 else None
    s = sc.State.from_parts(dungeon=dungeon, room=room, health=rng.randint(8, 20),
                            weapon=weapon, variant=deal.variant)
    return InfoState.from_state(s)


@given(st.integers(0, 10**6), st.integers(7, 10), st.integers(0, 4))
@settings(max_examples=30, deadline=None)
def test_small_endgames_choose_as_pimc(seed: int, n_cards: int, steps: int) -> None:
    """On small classic/strict deals (every position is in the endgame) the agent plays
    PIMC's move, and that move is the best of its own sampled values."""
    info = _walk(seed, n_cards, steps)[1]
    assume(info.legal_actions())
    agent = FairAgent()
    if not info.unseen:
        assert not agent.in_endgame(info)
        return
    assert agent.in_endgame(info)
    move, exact = agent.choose(info)
    assert (move, exact) == _as_played().choose(info)
    vals = agent.evaluate(info)
    assert max(vals, key=choice_key).action == move
    assert [v.action for v in vals] == list(info.legal_actions())


@given(st.integers(0, 10**6), st.integers(7, 10), st.integers(0, 4))
@settings(max_examples=25, deadline=None)
def test_sampled_values_recount_by_exact_solves(seed: int, n_cards: int, steps: int) -> None:
    """The slow twin of ``sampled_values``: every action in every sampled order, solved
    to its exact best score, counted and averaged by hand (PIMC asks "won?" first and
    scores only where needed; here every score is solved in full)."""
    info = _walk(seed, n_cards, steps)[1]
    assume(info.unseen and info.legal_actions())
    agent = FairAgent(configs_with(**NO_RACE))
    vals = agent.sampled_values(info)
    orders = sample_orders(info, ENDGAME_SAMPLES, 0)
    bonus = 400.0  # classic's win bonus
    for v in vals:
        scores = []
        for order in orders:
            nxt = sc.apply(world(info, order), v.action)
            score = nxt.score if nxt.is_over else solve_value(nxt)
            assert score is not None
            scores.append(score)
        wins = sum(x > 0 for x in scores)
        assert v.samples == len(orders)
        assert v.win_chance == wins / len(orders)
        assert v.expected_score == pytest.approx(sum(scores) / len(orders), abs=1e-12)
        assert v.value == pytest.approx(v.expected_score + bonus * v.win_chance, abs=1e-9)
        assert v.exact == (len(info.unseen) <= 1)


@given(st.integers(0, 10**6), st.integers(7, 12), st.integers(0, 4), st.sampled_from([16, 32]),
       st.sampled_from([0, 16, 32]), st.sampled_from([math.inf, 1.0]))
@settings(max_examples=25, deadline=None)
def test_a_racing_endgame_plays_the_best_value_it_shows(seed: int, n_cards: int, steps: int,
                                                        cap: int, scored: int,
                                                        score_margin: float) -> None:
    """With ``endgame_cap`` the agent is PIMC racing its close actions on up to that many
    orders (its ties of wins broken by the scores of ``endgame_scored`` of them): its move
    is the race's and the best of the values it shows, which rest on the orders the race
    drew (every action on every one)."""
    info = _walk(seed, n_cards, steps)[1]
    assume(info.unseen and len(info.legal_actions()) > 1)
    agent = FairAgent(configs_with(endgame_cap=cap, endgame_scored=scored,
                                   endgame_score_margin=score_margin))
    move, exact = agent.choose(info)
    assert (move, exact) == PimcAgent(samples=ENDGAME_SAMPLES, cap=cap, seed=0,
                                      scored=scored or None,
                                      score_margin=score_margin).choose(info)
    vals = agent.evaluate(info)
    assert max(vals, key=choice_key).action == move
    n = {v.samples for v in vals}
    assert len(n) == 1 and min(ENDGAME_SAMPLES, len(sample_orders(info, cap))) <= n.pop() <= cap
    # a cap no larger than the samples is no race
    assert FairAgent(configs_with(**{**NO_RACE, "endgame_cap": ENDGAME_SAMPLES})).evaluate(
        info) == FairAgent(configs_with(**NO_RACE)).evaluate(info)


@given(st.integers(0, 10**6), st.sampled_from([ENDGAME, ENDGAME - 6, ENDGAME + 3]),
       st.sampled_from(["classic", "classic/equal"]))
@settings(max_examples=10, deadline=None)
def test_full_deals_switch_at_the_endgame(seed: int, unseen: int, variant: str) -> None:
    """On full classic deals (either weapon rule) the agent is its search above the
    endgame and PIMC at or below it."""
    assert agent_config(variant).endgame == ENDGAME
    info = _deep(seed, unseen, variant)
    agent = FairAgent()
    if len(info.unseen) > ENDGAME:
        assert not agent.in_endgame(info)
        assert agent.choose(info) == FairAgent(configs_with(endgame=0)).choose(info)
        assert all(v.samples == 0 for v in FairAgent().evaluate(info))
    else:
        # each variant samples its own number of orders (classic/equal more than strict,
        # classic/strict more where its race finds the choice close)
        assert agent.in_endgame(info)
        assert agent.choose(info) == _as_played(variant).choose(info)
        drawn = {v.samples for v in agent.evaluate(info)}
        assert len(drawn) == 1 and drawn.pop() in _orders_drawn(variant)


@given(st.integers(0, 10**6), st.sampled_from(["hard", "easy", "hard/equal", "easy/equal"]))
@settings(max_examples=10, deadline=None)
def test_other_variants_keep_the_search(seed: int, variant: str) -> None:
    """Only classic has an endgame: elsewhere the agent is its search alone."""
    info = _deep(seed, 12, variant)
    agent = FairAgent()
    assert not agent.in_endgame(info) and agent.config_for(info).endgame == 0
    # fresh agents each: the memo a search leaves can let the next one go deeper
    assert agent.choose(info) == FairAgent(configs_with(endgame=0)).choose(info)
    assert FairAgent().evaluate(info) == FairAgent(configs_with(endgame=0)).evaluate(info)
    assert all(v.samples == 0 for v in FairAgent().evaluate(info))


@given(st.integers(0, 10**6), st.integers(0, 10**6))
@settings(max_examples=10, deadline=None)
def test_endgame_sees_only_what_a_player_sees(seed: int, shuffle_seed: int) -> None:
    """Two deals that share every card seen so far (the unseen ones in another order)
    get the same decisions and the same values."""
    info = _deep(seed, ENDGAME - 3)
    order = list(info.unseen)
    random.Random(shuffle_seed).shuffle(order)
    other = InfoState.from_state(world(info, order), info.bottom)
    assert other.to_text() == info.to_text()
    one, two = FairAgent(), FairAgent()
    assert one.choose(info) == two.choose(other)
    assert one.evaluate(info) == two.evaluate(other)


def test_endgame_options_are_checked() -> None:
    for kw, name in (({"endgame": -1}, "endgame"), ({"endgame": "24"}, "endgame"),
                     ({"endgame": True}, "endgame"), ({"endgame_samples": 0}, "endgame_samples"),
                     ({"endgame_samples": 10_001}, "endgame_samples"),
                     ({"endgame_samples": 2.5}, "endgame_samples"),
                     ({"endgame_cap": -1}, "endgame_cap"), ({"endgame_cap": 10_001}, "endgame_cap"),
                     ({"endgame_margin": -1}, "endgame_margin"),
                     ({"endgame_scored": -1}, "endgame_scored"),
                     ({"endgame_score_margin": -1.0}, "endgame_score_margin"),
                     ({"endgame_score_margin": math.nan}, "endgame_score_margin"),
                     ({"endgame_margin": 1.0}, "endgame_margin")):
        with pytest.raises(SolverError, match=f"^{name} "):
            AgentConfig(node_budget=1000, deepen_at=30, win_bonus=100.0, **kw)  # type: ignore[arg-type]


def test_endgame_zero_and_a_later_endgame() -> None:
    """An ``endgame`` of 0 is the search alone; a larger one starts PIMC earlier."""
    info = _deep(5, 27)
    n = len(info.unseen)
    assert n > ENDGAME
    assert not FairAgent(configs_with(endgame=0)).in_endgame(info)
    assert not FairAgent().in_endgame(info)
    assert FairAgent(configs_with(endgame=n)).in_endgame(info)
    assert FairAgent(configs_with(endgame=n, endgame_samples=4)).choose(info) == PimcAgent(
        samples=4, seed=0).choose(info)


@given(st.integers(0, 10**6))
@settings(max_examples=6, deadline=None)
def test_hints_rank_the_endgame_as_the_agent_plays(seed: int) -> None:
    """The terminal hint, ``--advise`` and the web's rows put the agent's own move first
    and say the values are sampled."""
    info = _deep(seed, ENDGAME - 4)
    assume(len(info.legal_actions()) > 1)
    move = FairAgent().choose(info)[0]
    vals = FairAgent().evaluate(info)
    assert best_row(vals, info) == hint_rows([v for v in vals if v.action == move])[0]
    game = Session(world(info, sorted(info.unseen)))
    lines = render_hint(game, vals, Palette())
    assert "endgame" in lines[0] and f" {move!s} " in lines[2]
    assert all(line.endswith("sampled") for line in lines[2:])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        print_advice(info, vals, as_json=True)
    rows = json.loads(out.getvalue())
    assert {row["samples"] for row in rows} == {v.samples for v in vals}
    assert {v.samples for v in vals} <= set(_orders_drawn("classic/strict"))
    assert [row["action"] for row in rows if row["choice"]] == [str(move)]
