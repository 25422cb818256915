"""Seeded deals that never change.

The generator is SplitMix64 (Steele, Lea and Flood, 2014): a 64-bit state that
advances by the constant ``0x9E3779B97F4A7C15`` and is finalised by two
xor-shift-multiply rounds. The shuffle is Fisher-Yates from the last card down,
each index drawn without bias by rejection: for ``i`` from 43 down to 1, draw
64-bit words until one falls below ``2**64 - (2**64 % (i + 1))``, then take it
modulo ``i + 1`` and swap cards ``i`` and that index. The deck starts in id order
(see :mod:`scoundrel_core.cards`); after the shuffle, index 0 is the top of the
dungeon. Everything here is plain integer arithmetic, so a deal is the same on
every platform and version. Test vectors in ``tests/test_deal.py`` pin it.

A daily dungeon uses the date as a seed: ``YYYY-MM-DD`` maps to the integer
``YYYYMMDD`` (2026-11-29 -> 20261129).
"""

from __future__ import annotations

import datetime as _dt
import numbers
import re
from collections.abc import Iterator

from .cards import FULL_DECK, Card
from .errors import SeedError, excerpt

__all__ = ["MAX_SEED", "daily_seed", "deal", "parse_seed_number", "splitmix64"]

_MASK64 = (1 << 64) - 1
_DATE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# Plain ASCII decimal: int() would also take "1_0", "+42", " 42" and other scripts' digits.
_DECIMAL_RE = re.compile(r"[0-9]{1,20}")
MAX_SEED = _MASK64
"""The largest seed, 2**64 - 1: seeds run over every unsigned 64-bit integer."""


def parse_seed_number(text: str, what: str = "seed") -> int:
    """A number of a seed written in plain ASCII decimal digits (no sign, no ``_``).

    The value is not range-checked here (``2**64`` ends a range); callers check it.

    >>> parse_seed_number("42")
    42
    >>> parse_seed_number("1_0")
    Traceback (most recent call last):
    ...
    scoundrel_core.errors.SeedError: seed '1_0' is not a number in plain decimal digits 0-9
    """
    if not isinstance(text, str) or not _DECIMAL_RE.fullmatch(text):
        if isinstance(text, str) and text.isascii() and text.lstrip("-").isdigit():
            raise SeedError(f"{what} {excerpt(text)} is out of range 0..2**64-1")
        raise SeedError(f"{what} {excerpt(text)} is not a number in plain decimal digits 0-9")
    return int(text)


def splitmix64(seed: int) -> Iterator[int]:
    """The SplitMix64 stream of 64-bit words for a seed."""
    state = seed & _MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        yield z ^ (z >> 31)


def check_seed(seed: object) -> int:
    """The seed as an int, or a SeedError naming it. Any integer type is taken (numpy's
    ``np.int64(7)`` as ``7``); bools, floats and strings are not.

    >>> import numpy as np
    >>> check_seed(np.uint64(7)), check_seed(7)
    (7, 7)
    """
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise SeedError(f"seed {seed!r} is not an integer")
    seed = int(seed)
    if not 0 <= seed <= MAX_SEED:
        raise SeedError(f"seed {seed} is out of range 0..2**64-1")
    return seed


def deal(seed: int) -> list[Card]:
    """The 44 cards shuffled by ``seed``, top of the dungeon first.

    >>> [str(c) for c in deal(0)[:4]]
    ['10C', 'KS', '5D', '5S']
    """
    seed = check_seed(seed)
    cards = list(FULL_DECK)
    words = splitmix64(seed)
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        limit = (1 << 64) - ((1 << 64) % n)
        x = next(words)
        while x >= limit:
            x = next(words)
        j = x % n
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def daily_seed(date: str | _dt.date) -> int:
    """The seed of the daily dungeon for a date: ``YYYYMMDD`` as an integer.

    Text must be exactly ``YYYY-MM-DD`` (other ISO forms such as ``20261129``
    are refused, as the message says).

    >>> daily_seed("2026-11-29")
    20261129
    """
    if isinstance(date, str):
        try:
            if not _DATE_RE.fullmatch(date.strip()):
                raise ValueError(date)
        except ValueError:
            raise SeedError(f"bad date {excerpt(date)}: expected YYYY-MM-DD") from None
        text = date.strip()
        try:
            date = _dt.date.fromisoformat(text)
        except ValueError:  # the form is right, the day is not in the calendar
            raise SeedError(f"date {text} does not exist") from None
    if not isinstance(date, _dt.date):
        raise SeedError(f"bad date {excerpt(date)}: expected YYYY-MM-DD")
    return date.year * 10000 + date.month * 100 + date.day
