"""The text notation of docs/rules.md: cards, decks, actions, lines and states."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

import scoundrel_core as sc
from test_rules import policies, random_game, random_line, seeds

C = sc.parse_card


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10D", "10D"),
        ("TD", "10D"),
        ("td", "10D"),
        ("10d", "10D"),
        ("AS", "AS"),
        ("as", "AS"),
        ("K♠", "KS"),
        ("7♥", "7H"),
        ("2♦", "2D"),
        ("Q♣", "QC"),
        ("j♤", "JS"),
        ("5♡", "5H"),
        (" 9C ", "9C"),
        ("AC", "AC"),
    ],
)
def test_parse_card(text: str, expected: str) -> None:
    assert str(C(text)) == expected


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("2C", 2, sc.Kind.MONSTER),
        ("JS", 11, sc.Kind.MONSTER),
        ("QC", 12, sc.Kind.MONSTER),
        ("KS", 13, sc.Kind.MONSTER),
        ("AC", 14, sc.Kind.MONSTER),
        ("10D", 10, sc.Kind.WEAPON),
        ("2H", 2, sc.Kind.POTION),
        ("10H", 10, sc.Kind.POTION),
    ],
)
def test_card_value_and_kind(text: str, value: int, kind: sc.Kind) -> None:
    c = C(text)
    assert (c.value, c.kind) == (value, kind)


def test_deck_composition() -> None:
    kinds = [c.kind for c in sc.FULL_DECK]
    assert kinds.count(sc.Kind.MONSTER) == 26
    assert kinds.count(sc.Kind.WEAPON) == 9
    assert kinds.count(sc.Kind.POTION) == 9
    assert max(c.value for c in sc.FULL_DECK if c.is_monster) == 14
    assert max(c.value for c in sc.FULL_DECK if c.is_weapon) == 10


def test_printing() -> None:
    assert str(C("td")) == "10D"
    assert repr(C("ks")) == "Card(KS)"
    assert C("QC").rank == "Q"
    assert sc.format_deck([C("AS"), C("10H"), C("2C")]) == "AS 10H 2C"


@pytest.mark.parametrize("c", sc.FULL_DECK, ids=str)
def test_card_round_trip(c: sc.Card) -> None:
    assert C(str(c)) is c
    assert C(str(c).lower()) is c
    assert sc.card(c.id) is c
    assert C(c) is c


def test_deck_round_trip() -> None:
    deck = sc.deal(42)
    text = sc.format_deck(deck)
    assert list(sc.parse_deck(text)) == deck
    assert list(sc.parse_deck(text.replace(" ", ", "))) == deck
    assert list(sc.parse_deck(str(c) for c in deck)) == deck
    assert sc.new_game(deck=text) == sc.new_game(seed=42)


def all_actions() -> list[sc.Action]:
    return [
        sc.Action(a)
        for a in range(sc.NUM_ACTIONS)
        if a % 2 == 0 or sc.card(a // 2).is_monster or a == 88
    ]


@pytest.mark.parametrize("a", all_actions(), ids=str)
def test_action_text_round_trip(a: sc.Action) -> None:
    assert sc.parse_action_text(str(a)) == a
    assert sc.parse_action_text(str(a).lower()) == a
    assert repr(a) == f"Action({a})"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("flee", "flee"),
        ("FLEE", "flee"),
        ("7d", "7D"),
        ("ks/w", "KS/w"),
        ("K♠/F", "KS/f"),
        ("TC/w", "10C/w"),
        (" 5H ", "5H"),
    ],
)
def test_action_text_variants(text: str, expected: str) -> None:
    assert str(sc.parse_action_text(text)) == expected


def test_parse_action_in_state() -> None:
    s = sc.new_game(seed=7)  # room: 2D 3H 9S 2S
    assert sc.parse_action(s, "2s/f") == sc.resolve(C("2S"))
    assert sc.parse_line(s, "2D 2S/w 3H") == [
        sc.resolve(C("2D")),
        sc.fight(C("2S")),
        sc.resolve(C("3H")),
    ]


@settings(max_examples=40, deadline=None)
@given(seed=seeds, policy=policies)
def test_line_text_round_trip(seed: int, policy: int) -> None:
    rnd = random.Random(policy)
    start, line = random_line(seed, rnd)
    text = " ".join(map(str, line))
    assert sc.parse_line(start, text) == line
    assert sc.parse_line(start, text.lower()) == line
    assert sc.play_line(start, text) == sc.play_line(start, line)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, policy=policies)
def test_state_text_round_trip(seed: int, policy: int) -> None:
    rnd = random.Random(policy)
    for s in random_game(seed, rnd):
        text = s.to_text()
        back = sc.State.from_text(text)
        assert back == s
        assert back.to_text() == text
        assert sc.parse_state(text) == s
        assert eval(repr(s), {"State": sc.State}) == s


def test_state_text_example() -> None:
    s = sc.State.from_parts(
        health=12,
        room=["JS", "6C", "4H"],
        dungeon=["2C", "3C"],
        weapon="8D",
        last_kill=11,
        resolved=1,
    )
    assert s.to_text() == (
        "classic/strict health=12 weapon=8D last=J potion=0 resolved=1 fled=0 "
        "room=[JS 6C 4H] dungeon=[2C 3C]"
    )
    over = sc.State.from_parts(
        health=-6, room=["KC"], resolved=1, over=True, score=-19, variant="hard",
        weapon_rule="equal",
    )
    assert over.to_text().endswith("score=-19")
    assert over.to_text().startswith("hard/equal ")
    assert sc.State.from_text(over.to_text()) == over
