"""Where a game starts: a seed's deal, a daily dungeon, a given deck or a position.

A :class:`Deal` keeps the start position and what named it (the seed, the
deck text or the position text), so a front end can name the same deal
again (a link, a record). A position may carry fled cards known to lie at
the bottom of the dungeon (``InfoState`` text with ``| bottom=[...]``).

>>> Deal.seeded(42, "hard").query()
{'seed': '42', 'variant': 'hard', 'weapon_rule': 'strict'}
>>> Deal.daily("2026-01-31").seed, Deal.seeded(20260131).daily_date
(20260131, '2026-01-31')
"""

from __future__ import annotations

from dataclasses import dataclass

import scoundrel_core as sc
from scoundrel_core import Card, InfoState, State, Variant

__all__ = ["Deal"]


@dataclass(frozen=True)
class Deal:
    """The start position, and what named it (at most one of seed, deck and position text)."""

    start: State
    seed: int | None = None
    deck: str | None = None
    """The deck's text (top of the dungeon first), for a deal given as a deck."""
    state_text: str | None = None
    """The position's text, for a deal given as a position."""
    bottom: tuple[Card, ...] = ()
    """Fled cards the player knows lie at the bottom of the dungeon, in order."""

    @classmethod
    def seeded(cls, seed: int, variant: str | Variant = "classic",
               weapon_rule: str | None = None) -> Deal:
        """The deal of a seed (0..2**64-1)."""
        return cls(sc.new_game(seed=seed, variant=sc.get_variant(variant, weapon_rule)), seed)

    @classmethod
    def daily(cls, date: str, variant: str | Variant = "classic",
              weapon_rule: str | None = None) -> Deal:
        """The daily dungeon of a date (``YYYY-MM-DD``): the deal of its seed."""
        return cls.seeded(sc.daily_seed(date), variant, weapon_rule)

    @classmethod
    def of_deck(cls, text: str, variant: str | Variant = "classic",
                weapon_rule: str | None = None) -> Deal:
        """The deal of a deck's text, top of the dungeon first (fewer than 44 cards allowed)."""
        start = sc.new_game(deck=text, variant=sc.get_variant(variant, weapon_rule),
                            partial=True)
        if start.is_over or not start.room:
            raise sc.ScoundrelError("the deck has no cards")
        return cls(start, deck=sc.format_deck(start.room + start.dungeon))

    @classmethod
    def of_position(cls, text: str) -> Deal:
        """The deal of a position's text: ``State.to_text()``, or an information state's
        text whose ``| bottom=[...]`` names the fled cards at the bottom."""
        info = InfoState.from_text(text)
        start = sc.parse_state(text.partition("|")[0].strip())
        return cls(start, state_text=text, bottom=info.bottom)

    @classmethod
    def of_record(cls, record: sc.GameRecord) -> Deal:
        """The deal a game record starts from."""
        start = record.start()
        if record.seed is not None:
            return cls(start, record.seed)
        return cls(start, deck=sc.format_deck(start.room + start.dungeon))

    @property
    def daily_date(self) -> str | None:
        """``YYYY-MM-DD`` when the deal is a classic/strict seed of the form ``YYYYMMDD``
        (the daily dungeon's: :meth:`daily` deals it)."""
        v = self.start.variant
        if self.seed is None or v.name != "classic" or v.weapon_rule != "strict":
            return None
        y, md = divmod(self.seed, 10000)
        m, d = divmod(md, 100)
        if 2000 <= y <= 2999 and 1 <= m <= 12 and 1 <= d <= 31:
            return f"{y:04d}-{m:02d}-{d:02d}"
        return None

    def query(self) -> dict[str, str]:
        """The fields that name this deal: ``state``, or ``seed`` or ``deck`` with
        ``variant`` and ``weapon_rule``."""
        v = self.start.variant
        if self.state_text is not None:
            return {"state": self.state_text}
        if self.seed is not None:
            return {"seed": str(self.seed), "variant": v.name, "weapon_rule": v.weapon_rule}
        if self.deck is None:
            raise ValueError("a deal named by nothing: give a seed, a deck or a position")
        return {"deck": self.deck, "variant": v.name, "weapon_rule": v.weapon_rule}

    def initial_info(self) -> InfoState:
        """What the player sees at the start of the deal."""
        return InfoState.from_state(self.start, self.bottom)
