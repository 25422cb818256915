"""scoundrel_core: the rules of the solo card game Scoundrel.

>>> import scoundrel_core as sc
>>> s = sc.new_game(seed=7)
>>> s.health, len(s.room), s.dungeon_size
(20, 4, 40)
>>> s2 = sc.apply(s, sc.legal_actions(s)[0])
>>> s.health == 20 and s2 != s
True
"""

from ._version import __version__ as __version__
from .actions import FLEE, NUM_ACTIONS, Action, fight, parse_action_text, resolve
from .cards import DECK_SIZE, FULL_DECK, Card, Kind, card, format_deck, parse_card, parse_deck
from .deal import MAX_SEED, daily_seed, deal, parse_seed_number, splitmix64
from .errors import (
    CardError,
    DeckError,
    IllegalActionError,
    PositionError,
    RecordError,
    ScoundrelError,
    SeedError,
    StateTextError,
    VariantError,
    excerpt,
)
from .info import ChanceNode, InfoState, observe
from .record import RECORD_FORMAT, GameRecord
from .rules import (
    ROOM_SIZE,
    apply,
    can_apply,
    legal_action_mask,
    legal_actions,
    new_game,
    parse_action,
    parse_line,
    play_line,
    why_illegal,
)
from .state import MAX_HEALTH, State
from .variants import FLEE_RULES, VARIANTS, WEAPON_RULES, Variant, get_variant


def parse_state(text: str, *, partial: bool = True) -> State:
    """Read a state from the text form of :meth:`State.to_text` (see :meth:`State.from_text`).

    A position the rules cannot reach raises :class:`PositionError`.
    """
    return State.from_text(text, partial=partial)


__all__ = [
    "DECK_SIZE",
    "FLEE",
    "FLEE_RULES",
    "FULL_DECK",
    "MAX_HEALTH",
    "MAX_SEED",
    "NUM_ACTIONS",
    "RECORD_FORMAT",
    "ROOM_SIZE",
    "VARIANTS",
    "WEAPON_RULES",
    "Action",
    "Card",
    "CardError",
    "ChanceNode",
    "DeckError",
    "GameRecord",
    "IllegalActionError",
    "InfoState",
    "Kind",
    "PositionError",
    "RecordError",
    "ScoundrelError",
    "SeedError",
    "State",
    "StateTextError",
    "Variant",
    "VariantError",
    "apply",
    "can_apply",
    "card",
    "daily_seed",
    "deal",
    "excerpt",
    "fight",
    "format_deck",
    "get_variant",
    "legal_action_mask",
    "legal_actions",
    "new_game",
    "observe",
    "parse_action",
    "parse_action_text",
    "parse_card",
    "parse_deck",
    "parse_line",
    "parse_seed_number",
    "parse_state",
    "play_line",
    "resolve",
    "splitmix64",
    "why_illegal",
]
