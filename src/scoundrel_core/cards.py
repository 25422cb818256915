"""Cards of the Scoundrel deck, their kinds and values, and their notation.

The 44 cards are numbered 0..43 in a fixed order that never changes (it feeds the
seeded shuffle, so changing it would change every deal):

    ids  0..12  clubs    2..10, J, Q, K, A   monsters, value 2..14
    ids 13..25  spades   2..10, J, Q, K, A   monsters, value 2..14
    ids 26..34  diamonds 2..10               weapons,  value 2..10
    ids 35..43  hearts   2..10               potions,  value 2..10

Cards are flyweights: ``card(i)`` always returns the same object, so identity,
equality and hashing agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum
from numbers import Integral
from typing import Final

from .errors import CardError, DeckError, excerpt

__all__ = [
    "DECK_SIZE",
    "FULL_DECK",
    "Card",
    "Kind",
    "card",
    "format_deck",
    "parse_card",
    "parse_deck",
]

DECK_SIZE: Final = 44
"""Cards in the Scoundrel deck: 26 monsters, 9 weapons, 9 potions."""


class Kind(IntEnum):
    """What a card does when it is resolved."""

    MONSTER = 0
    WEAPON = 1
    POTION = 2


SUITS: Final = "CSDH"
_SUIT_KIND: Final = {"C": Kind.MONSTER, "S": Kind.MONSTER, "D": Kind.WEAPON, "H": Kind.POTION}
_RANK_TEXT: Final = {11: "J", 12: "Q", 13: "K", 14: "A"}
_TEXT_RANK: Final = {"J": 11, "Q": 12, "K": 13, "A": 14, "T": 10}
_SUIT_SYMBOLS: Final = {
    "♣": "C", "♠": "S", "♦": "D", "♥": "H", "♧": "C", "♤": "S", "♢": "D", "♡": "H",
}


class Card:
    """One card: a suit letter and a value. Use :func:`card` or :func:`parse_card`."""

    __slots__ = ("_text", "id", "kind", "suit", "value")

    id: int
    suit: str
    value: int
    kind: Kind
    _text: str

    def __init__(self, card_id: int, suit: str, value: int) -> None:
        object.__setattr__(self, "id", card_id)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "kind", _SUIT_KIND[suit])
        object.__setattr__(self, "_text", _RANK_TEXT.get(value, str(value)) + suit)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    @property
    def is_monster(self) -> bool:
        return self.kind is Kind.MONSTER

    @property
    def is_weapon(self) -> bool:
        return self.kind is Kind.WEAPON

    @property
    def is_potion(self) -> bool:
        return self.kind is Kind.POTION

    @property
    def rank(self) -> str:
        """Rank text: ``2``..``10``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_TEXT.get(self.value, str(self.value))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self})"

    def __lt__(self, other: Card) -> bool:
        return self.id < other.id

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (card, (self.id,))


def _build_deck() -> tuple[Card, ...]:
    cards: list[Card] = []
    for suit in "CS":
        for value in range(2, 15):
            cards.append(Card(len(cards), suit, value))
    for suit in "DH":
        for value in range(2, 11):
            cards.append(Card(len(cards), suit, value))
    return tuple(cards)


FULL_DECK: Final[tuple[Card, ...]] = _build_deck()
"""The 44 cards in id order (not a shuffled deal)."""

_BY_TEXT: Final = {str(c): c for c in FULL_DECK}


def card(card_id: int) -> Card:
    """The card with this id (0..43): a Python or numpy integer, never a bool."""
    if isinstance(card_id, bool) or not isinstance(card_id, Integral):
        raise CardError(f"card id {card_id!r} is not an integer 0..43")
    if not 0 <= card_id < DECK_SIZE:
        raise CardError(f"card id {card_id!r} is not in 0..43")
    return FULL_DECK[int(card_id)]


def parse_card(text: str | Card) -> Card:
    """Read one card: ``10D``, ``TD``, ``as``, ``K♠``. A Card is returned as it is.

    >>> parse_card("td")
    Card(10D)
    """
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise CardError(f"card {excerpt(text)} is not text")
    t = text.strip()
    if len(t) < 2:
        raise CardError(f"bad card {excerpt(text)}: expected rank then suit, like '10D' or 'AS'")
    suit = _SUIT_SYMBOLS.get(t[-1], t[-1].upper())
    rank_text = t[:-1].upper()
    if suit not in _SUIT_KIND:
        raise CardError(f"bad card {excerpt(text)}: unknown suit {t[-1]!r} (use C, D, H or S)")
    if rank_text in _TEXT_RANK:
        value = _TEXT_RANK[rank_text]
    elif (rank_text.isascii() and rank_text.isdigit() and len(rank_text) <= 2
          and 2 <= int(rank_text) <= 10 and rank_text == str(int(rank_text))):
        value = int(rank_text)
    else:
        raise CardError(
            f"bad card {excerpt(text)}: unknown rank {excerpt(t[:-1])} (use 2..10, T, J, Q, K, A)"
        )
    found = _BY_TEXT.get(_RANK_TEXT.get(value, str(value)) + suit)
    if found is None:
        raise CardError(
            f"bad card {excerpt(text)}: not in the Scoundrel deck (no red court cards or red aces)"
        )
    return found


def parse_deck(
    text: str | Iterable[str | Card], *, partial: bool = False
) -> tuple[Card, ...]:
    """Read a deck, top of the dungeon first.

    ``text`` is card text separated by spaces or commas, or an iterable of cards
    or card strings. A full deck must be a permutation of the 44 cards; with
    ``partial=True`` any non-empty set of distinct cards is accepted (reduced
    dungeons for tests and brute force).
    """
    if not isinstance(text, (str, Iterable)):
        raise DeckError(f"deck {text!r:.80} is not card text or a sequence of cards")
    items: Sequence[str | Card] = (
        text.replace(",", " ").split() if isinstance(text, str) else list(text)
    )
    cards = tuple(parse_card(t) for t in items)
    seen: set[Card] = set()
    dupes = []
    for c in cards:
        if c in seen:
            dupes.append(str(c))
        seen.add(c)
    if dupes:
        raise DeckError(f"deck has duplicate cards: {' '.join(dupes)}")
    if not cards:
        raise DeckError("deck is empty")
    if not partial and len(cards) != DECK_SIZE:
        missing = [str(c) for c in FULL_DECK if c not in seen]
        raise DeckError(
            f"deck has {len(cards)} cards, expected all {DECK_SIZE}; missing: {' '.join(missing)}"
        )
    return cards


def format_deck(cards: Iterable[Card]) -> str:
    """Cards as text separated by spaces."""
    return " ".join(str(c) for c in cards)
