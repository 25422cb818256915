"""The small deck of a bound: read, its size limited, and its distinct orders.

Two cards of one kind and value (the 5 of clubs and the 5 of spades) play
alike, so the orders of a deck are enumerated as sequences of kinds and values,
each once. Of alike cards the lower id is put first: that is the card the
library's fair tree draws for that outcome (:meth:`ChanceNode.draw`), so the
information states along a line of play on such an order are exactly the states
of the fair tree. Swapping alike cards changes no game, and every sequence
stands for the same number of orders of the cards (the product of the
factorials of the counts of alike cards), which :func:`distinct_orders` returns
with it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Sequence

import scoundrel_core as sc
from scoundrel_core import Card, Kind

from ..errors import SolverError

__all__ = ["MAX_CARDS", "distinct_orders", "read_deck"]

MAX_CARDS = 8
"""The largest deck :func:`~scoundrel_solver.bound.upper_bound` takes: it plays
every line on every order of the deck (8! = 40,320 orders)."""


def read_deck(
    deck: Sequence[Card | str] | str, variant: str, weapon_rule: str | None
) -> tuple[sc.State, tuple[Card, ...]]:
    """The opening state of ``deck`` (checked by the library) and its cards, top first.

    A deck larger than :data:`MAX_CARDS` is refused before any work.
    """
    if not isinstance(deck, (str, Sequence)):
        raise SolverError(f"deck {deck!r:.40} is neither a deck text nor a list of cards")
    size = len(deck.split()) if isinstance(deck, str) else len(deck)
    if size > MAX_CARDS:
        raise SolverError(
            f"deck of {size} cards: the bound enumerates every order of the deck, "
            f"so it takes at most {MAX_CARDS} cards"
        )
    s = sc.new_game(deck=deck, partial=True, variant=variant, weapon_rule=weapon_rule)
    return s, (*s.room, *s.dungeon)


def _alike(c: Card) -> tuple[Kind, int]:
    return (c.kind, c.value)


def distinct_orders(cards: Sequence[Card]) -> Iterator[tuple[tuple[Card, ...], int]]:
    """Every order of ``cards`` up to swapping alike cards, with how many orders it stands for.

    Alike cards come in id order. The count is the same for every order.

    >>> deck = sc.parse_deck("5C 5S 3H", partial=True)
    >>> [(" ".join(map(str, o)), m) for o, m in distinct_orders(deck)]
    [('5C 5S 3H', 2), ('5C 3H 5S', 2), ('3H 5C 5S', 2)]
    """
    groups: dict[tuple[Kind, int], list[Card]] = {}
    for c in sorted(cards, key=lambda c: c.id):
        groups.setdefault(_alike(c), []).append(c)
    counts = Counter({k: len(v) for k, v in groups.items()})
    times = math.prod(math.factorial(n) for n in counts.values())
    kinds = list(groups)
    order: list[Card] = []

    def place() -> Iterator[tuple[Card, ...]]:
        if len(order) == len(cards):
            yield tuple(order)
            return
        for k in kinds:
            left = counts[k]
            if left:
                group = groups[k]
                order.append(group[len(group) - left])  # the lowest id not yet placed
                counts[k] = left - 1
                yield from place()
                counts[k] = left
                order.pop()

    for o in place():
        yield o, times
