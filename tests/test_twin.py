"""The fast path and its slow twin play the same games, step by step.

``scoundrel_core.rules`` (packed states) and ``scoundrel_core.reference`` (plain
lists, written from docs/rules.md) are driven by the same random legal moves over
seeded deals and small hand-picked dungeons, in all six variant combinations.
At every step the legal actions and the positions must be equal, and a few
properties of the game must hold on both.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from scoundrel_core.cards import Card
from scoundrel_core.reference import (
    FLEE_ACTION,
    RefGame,
    ref_apply,
    ref_legal_actions,
    ref_new_game,
    to_state,
)

VARIANT_PAIRS = [(v, w) for v in sc.FLEE_RULES for w in sc.WEAPON_RULES]

# Easy allows fleeing every room, so a random walk could flee forever; stop it
# here. Classic and hard always end well before this.
MAX_STEPS = 200

seeds = st.integers(min_value=0, max_value=sc.MAX_SEED)
variant_pairs = st.sampled_from(VARIANT_PAIRS)
walks = st.randoms(use_true_random=False)
small_decks = st.lists(st.sampled_from(sc.FULL_DECK), min_size=1, max_size=12, unique=True)


def max_flees(variant: str, resolved: int) -> int | None:
    """The most flees possible after ``resolved`` cards, None if unbounded.

    Classic: after a flee the new room must be played until it refills, which
    takes three resolved cards, so flees are at most one per three cards, plus
    the one before the first card.
    """
    if variant == "hard":
        return 0
    if variant == "classic":
        return 1 + resolved // 3
    return None


def snapshot(g: RefGame) -> RefGame:
    """A copy of a reference game that shares no list with it."""
    return dataclasses.replace(
        g, dungeon=list(g.dungeon), room=list(g.room), resolved_cards=list(g.resolved_cards)
    )


def check_position(fast: sc.State, ref: RefGame, deck: list[Card], resolved: list[Card]) -> None:
    assert to_state(ref) == fast, f"\nfast: {fast}\nref:  {to_state(ref)}"
    assert fast.health <= sc.MAX_HEALTH
    assert ref.health <= sc.MAX_HEALTH
    # No card appears or vanishes: what is left plus what was resolved is the deck.
    assert sorted(fast.dungeon + fast.room + tuple(resolved)) == sorted(deck)
    assert ref.resolved_cards == resolved
    assert sc.State.from_text(str(fast)) == fast


def outlook(s: sc.State) -> float:
    """A rough worth of a position: health, plus a little for a weapon that still cuts."""
    if s.is_over:
        return 1000.0 + s.health if s.won else -1000.0 + s.health
    return s.health + 0.6 * s.weapon_value * min(s.weapon_reach, 10) / 10


def choose(
    s: sc.State, legal: tuple[sc.Action, ...], rng: random.Random, careful: bool
) -> sc.Action:
    """A random legal action; a careful player mostly takes one with the best outlook.

    Uniform play dies within a room or two; careful play reaches the middle and
    end of the dungeon, where refills run short and the last room is played out.
    """
    if careful and rng.random() < 0.8:
        worth = [outlook(sc.apply(s, a)) for a in legal]
        top = max(worth)
        legal = tuple(a for a, w in zip(legal, worth, strict=True) if w == top)
    return rng.choice(legal)


def play_twins(start: sc.State, rng: random.Random, careful: bool = False) -> None:
    """Play one random game on both twins from ``start``, checking every step."""
    variant = start.variant
    deck = list(start.room + start.dungeon)
    fast = start
    ref = ref_new_game(deck, variant.name, variant.weapon_rule)
    resolved: list[Card] = []
    flees = 0
    for _ in range(MAX_STEPS):
        check_position(fast, ref, deck, resolved)
        legal = sc.legal_actions(fast)
        assert [int(a) for a in legal] == ref_legal_actions(ref)
        # can_apply agrees with legal_actions: on both encodings of every room
        # card, on flee, and on one action drawn from the rest.
        legal_set = set(legal)
        probes = {2 * c.id + w for c in fast.room for w in (0, 1)}
        probes |= {FLEE_ACTION, rng.randrange(sc.NUM_ACTIONS)}
        for a in probes:
            assert sc.can_apply(fast, a) == (a in legal_set), f"action {a} in {fast}"
        if fast.is_over:
            break
        action = choose(fast, legal, rng, careful)
        fast_before = (fast.key, str(fast))
        ref_before = snapshot(ref)
        fast_next = sc.apply(fast, action)
        ref_next = ref_apply(ref, int(action))
        # apply is pure on both sides.
        assert (fast.key, str(fast)) == fast_before
        assert ref == ref_before
        if int(action) == FLEE_ACTION:
            flees += 1
        else:
            assert action.card is not None
            resolved.append(action.card)
        bound = max_flees(variant.name, len(resolved))
        assert bound is None or flees <= bound
        fast, ref = fast_next, ref_next
    else:
        # Only easy can still be going after MAX_STEPS moves.
        assert variant.name == "easy"
        return
    assert ref.over and fast.is_over
    assert fast.score == ref.score
    assert len(resolved) <= len(deck)
    if fast.won:
        assert len(resolved) == len(deck)
    else:
        assert fast.health <= 0


@settings(max_examples=120, deadline=None)
@given(seed=seeds, pair=variant_pairs, rng=walks, careful=st.booleans())
def test_twins_agree_on_seeded_deals(
    seed: int, pair: tuple[str, str], rng: random.Random, careful: bool
) -> None:
    variant, weapon_rule = pair
    start = sc.new_game(seed=seed, variant=variant, weapon_rule=weapon_rule)
    play_twins(start, rng, careful)


@settings(max_examples=250, deadline=None)
@given(deck=small_decks, pair=variant_pairs, rng=walks, careful=st.booleans())
def test_twins_agree_on_small_dungeons(
    deck: list[Card], pair: tuple[str, str], rng: random.Random, careful: bool
) -> None:
    variant, weapon_rule = pair
    start = sc.new_game(deck=deck, partial=True, variant=variant, weapon_rule=weapon_rule)
    play_twins(start, rng, careful)


@pytest.mark.parametrize(("variant", "weapon_rule"), VARIANT_PAIRS)
def test_twins_agree_on_first_seeds(variant: str, weapon_rule: str) -> None:
    # A fixed sweep, so a plain run covers the same games every time.
    for seed in range(20):
        start = sc.new_game(seed=seed, variant=variant, weapon_rule=weapon_rule)
        play_twins(start, random.Random(seed), careful=seed % 2 == 1)


# Lines of play from the worked examples of docs/rules.md, as (deck, health, line,
# expected health, expected score or None). The deck is top first; the tail
# after the first room only keeps the game from ending.
WORKED_LINES = [
    # 1: equip 8D, JS and 6C with the weapon: 12 -> 9 -> 9; 4H carries over.
    ("8D JS 6C 4H 2C 3C 4C", 12, "8D JS/w 6C/w", 9, None),
    # 1, the worse order: 6C first wears the weapon down, JS costs 11.
    ("8D JS 6C 4H 2C 3C 4C", 12, "8D 6C/w JS/f", 1, None),
    # 2: equip 7D, KS with the weapon (6 damage), drink 5H: 20 -> 14 -> 19.
    ("7D KS 5H 9C 2C 3C 4C", 20, "7D KS/w 5H", 19, None),
    # 4: 9H heals 16 -> 20 only; 5H in the same room heals nothing after damage.
    ("9H 2C 5H 3C 4C 5C 6C", 16, "9H 2C/f 5H", 18, None),
    # 6: 3 health, 9S barehanded: -6, minus KC and 5S still out.
    ("9S KC 5S 2H", 3, "9S/f", -6, -6 - 13 - 5),
    # 7: a win at 20 with 10H resolved last scores 30.
    ("2H 10H", 20, "2H 10H", 20, 30),
]


@pytest.mark.parametrize(("deck", "health", "line", "health_after", "score"), WORKED_LINES)
def test_twins_agree_on_worked_examples(
    deck: str, health: int, line: str, health_after: int, score: int | None
) -> None:
    cards = list(sc.parse_deck(deck, partial=True))
    ref = ref_new_game(cards)
    ref.health = health
    fast = to_state(ref)
    for text in line.split():
        action = sc.parse_action(fast, text)
        assert int(action) in ref_legal_actions(ref)
        fast = sc.apply(fast, action)
        ref = ref_apply(ref, int(action))
        assert to_state(ref) == fast
    assert fast.health == ref.health == health_after
    assert fast.score == ref.score == score


def test_reference_rejects_illegal_actions() -> None:
    ref = ref_new_game("5D 6D 2C 3C 4C")
    ref = ref_apply(ref, 2 * sc.parse_card("5D").id)
    six_of_diamonds = sc.parse_card("6D")
    with pytest.raises(sc.IllegalActionError):
        ref_apply(ref, 2 * six_of_diamonds.id + 1)  # a weapon is not fought
    with pytest.raises(sc.IllegalActionError):
        ref_apply(ref, FLEE_ACTION)  # a card of the room is already resolved
