"""Errors raised at the public edge of the library.

Every error subclasses :class:`ValueError` (through :class:`ScoundrelError`) and
quotes the input that caused it, so a caller can show the message as it is.
"""

from __future__ import annotations


class ScoundrelError(ValueError):
    """Base class of every error the library raises on bad input."""


class CardError(ScoundrelError):
    """Card text that is not a card of the 44-card Scoundrel deck."""


class DeckError(ScoundrelError):
    """A deck that is not a permutation of the 44 cards (or not a valid partial deck)."""


class VariantError(ScoundrelError):
    """An unknown variant name or weapon rule."""


class SeedError(ScoundrelError):
    """A seed that is not a non-negative integer below 2**64, or a bad date."""


class IllegalActionError(ScoundrelError):
    """An action that is not legal in the given state (or unreadable action text)."""


class StateTextError(ScoundrelError):
    """Text that does not describe a game state."""


class PositionError(StateTextError):
    """A position the rules cannot reach (a dead player still playing, a room too big, ...)."""


class RecordError(ScoundrelError):
    """A game record that cannot be read or does not replay."""


EXCERPT_CHARS = 80
"""How much of an input an error message quotes: enough to recognise it, never a whole file."""


def excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """``repr(value)``, cut to about ``limit`` characters with the full length said.

    >>> excerpt("KS 7D")
    "'KS 7D'"
    >>> excerpt("x" * 1000, 20)
    "'xxxxxxxxxxxxxxxxxxx... (1,000 characters)"
    """
    if isinstance(value, str) and len(value) > limit:
        return repr(value[: limit - 1])[:-1] + f"... ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
