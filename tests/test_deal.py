"""Seeded deals are pinned forever: these vectors must never change."""

from __future__ import annotations

import datetime as dt
import re
from itertools import islice

import pytest
from hypothesis import given
from hypothesis import strategies as st

import scoundrel_core as sc

# Generated once from the implementation in deal.py, then frozen. A failure here
# means every published seed and daily dungeon would deal differently.
# fmt: off
DEALS: dict[int, list[str]] = {
    0: [
        "10C", "KS", "5D", "5S", "10H", "AC", "8S", "3H", "8D", "7S", "9S",
        "2C", "2D", "9H", "2S", "8C", "10S", "JS", "4D", "3C", "6D", "4C",
        "3S", "4S", "JC", "6C", "9D", "8H", "QC", "6S", "9C", "7H", "7D",
        "10D", "7C", "2H", "5H", "AS", "5C", "3D", "6H", "4H", "KC", "QS",
    ],
    1: [
        "8S", "KC", "7D", "KS", "AC", "10C", "6C", "10H", "6D", "7C", "5D",
        "9D", "10D", "QC", "2D", "9C", "4S", "2S", "8C", "4H", "8H", "4D",
        "6H", "JS", "6S", "7S", "9S", "3D", "5C", "8D", "5H", "2H", "5S",
        "QS", "AS", "9H", "3S", "10S", "7H", "3C", "4C", "3H", "2C", "JC",
    ],
    7: [
        "2D", "3H", "9S", "2S", "8D", "AS", "JS", "5S", "5C", "3C", "10C",
        "3D", "4C", "6C", "7S", "9D", "KC", "5H", "9H", "KS", "QC", "7C",
        "7H", "9C", "5D", "JC", "10H", "8S", "10S", "4H", "AC", "3S", "7D",
        "QS", "8H", "6S", "4S", "6H", "8C", "10D", "6D", "2C", "4D", "2H",
    ],
    42: [
        "KS", "QS", "5C", "5S", "10D", "6H", "4H", "3D", "2S", "KC", "7S",
        "7C", "3S", "10S", "7D", "AS", "4C", "2H", "4D", "AC", "8D", "4S",
        "JS", "5D", "6D", "9C", "9H", "5H", "9S", "2D", "10C", "8C", "6C",
        "6S", "3H", "3C", "8S", "10H", "9D", "QC", "8H", "2C", "7H", "JC",
    ],
    2**64 - 1: [
        "7D", "9H", "JS", "4S", "2H", "QC", "6H", "7H", "3S", "5H", "5C",
        "KC", "8D", "9S", "10H", "10C", "5D", "3H", "6D", "4C", "10D", "7C",
        "6C", "10S", "3C", "9D", "JC", "8H", "8S", "AS", "7S", "3D", "5S",
        "4H", "6S", "KS", "4D", "QS", "2S", "8C", "2C", "9C", "2D", "AC",
    ],
}
# fmt: on


@pytest.mark.parametrize("seed", list(DEALS))
def test_deal_vectors(seed: int) -> None:
    assert [str(c) for c in sc.deal(seed)] == DEALS[seed]


@pytest.mark.parametrize("seed", list(DEALS))
def test_new_game_deals_top_of_dungeon_first(seed: int) -> None:
    s = sc.new_game(seed=seed)
    assert [str(c) for c in s.room] == DEALS[seed][:4]
    assert [str(c) for c in s.dungeon] == DEALS[seed][4:]


@given(st.integers(min_value=0, max_value=sc.MAX_SEED),
       st.sampled_from(["classic", "easy", "hard", "classic/equal"]))
def test_new_game_from_a_seed_is_the_checked_opening(seed: int, variant: str) -> None:
    # new_game deals a seed without the checks of a hand-built position.
    cards = sc.deal(seed)
    checked = sc.State.from_parts(dungeon=cards[4:], room=cards[:4], variant=variant)
    assert sc.new_game(seed=seed, variant=variant) == checked


def test_splitmix64_reference_values() -> None:
    # The first outputs of Vigna's splitmix64.c with state 0.
    assert list(islice(sc.splitmix64(0), 4)) == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
        0xF88BB8A8724C81EC,
    ]


def reference_deal(seed: int) -> list[str]:
    """The shuffle as deal.py's docstring describes it, written independently."""
    mask = 2**64 - 1
    state = seed

    def word() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    deck = [str(c) for c in sc.FULL_DECK]
    for i in range(43, 0, -1):
        bound = 2**64 - (2**64 % (i + 1))
        x = word()
        while x >= bound:
            x = word()
        j = x % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@given(st.integers(min_value=0, max_value=sc.MAX_SEED))
def test_deal_matches_documented_algorithm(seed: int) -> None:
    assert [str(c) for c in sc.deal(seed)] == reference_deal(seed)


@given(st.integers(min_value=0, max_value=sc.MAX_SEED))
def test_deal_is_a_permutation_of_the_44_cards(seed: int) -> None:
    cards = sc.deal(seed)
    assert len(cards) == sc.DECK_SIZE == 44
    assert sorted(cards) == list(sc.FULL_DECK)
    assert sc.deal(seed) == cards  # deterministic


def test_full_deck_order_is_fixed() -> None:
    assert sc.format_deck(sc.FULL_DECK) == (
        "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC "
        "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS "
        "2D 3D 4D 5D 6D 7D 8D 9D 10D "
        "2H 3H 4H 5H 6H 7H 8H 9H 10H"
    )
    assert [c.id for c in sc.FULL_DECK] == list(range(44))


def test_seeds_give_different_deals() -> None:
    deals = {tuple(sc.deal(seed)) for seed in range(200)}
    assert len(deals) == 200


def test_daily_seed() -> None:
    assert sc.daily_seed("2026-11-29") == 20261129
    assert sc.daily_seed(dt.date(2026, 11, 29)) == 20261129
    assert sc.daily_seed("2025-01-05") == 20250105
    assert sc.new_game(seed=sc.daily_seed("2026-11-29")) == sc.new_game(seed=20261129)


@pytest.mark.parametrize("bad", ["29/11/2026", "", "tomorrow", "٢٠٢٦-١١-٢٩"])
def test_daily_seed_bad_date(bad: str) -> None:
    with pytest.raises(sc.SeedError, match="bad date " + re.escape(repr(bad))):
        sc.daily_seed(bad)


@pytest.mark.parametrize("bad", ["2026-13-01", "2026-11-31", "2025-02-29", "2026-00-10"])
def test_daily_seed_of_a_day_not_in_the_calendar(bad: str) -> None:
    with pytest.raises(sc.SeedError, match=f"^date {bad} does not exist$"):
        sc.daily_seed(bad)


@pytest.mark.parametrize("text", ["1_0", "+42", " 42", "٤٢", "4２", "0x10", "", "1e3"])
def test_seed_text_is_plain_ascii_decimal(text: str) -> None:
    with pytest.raises(sc.SeedError, match="not a number in plain decimal digits"):
        sc.parse_seed_number(text)


def test_seed_text_of_many_digits_is_out_of_range_not_a_crash() -> None:
    with pytest.raises(sc.SeedError, match="out of range"):
        sc.parse_seed_number("9" * 5000)
    assert sc.parse_seed_number("18446744073709551615") == 2**64 - 1
