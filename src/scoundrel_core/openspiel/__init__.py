"""Scoundrel for OpenSpiel (the ``openspiel`` extra: ``pip install scoundrel-solver[openspiel]``).

Importing this module registers the game ``python_scoundrel``::

    import pyspiel
    import scoundrel_core.openspiel
    game = pyspiel.load_game("python_scoundrel(variant=classic,weapon_rule=strict)")

See :mod:`.game` for the game, :mod:`.observer` for its strings and tensors.
"""

from __future__ import annotations

import pyspiel

from .game import GAME_TYPE, SHORT_NAME, ScoundrelSpielGame, ScoundrelSpielState

__all__ = ["GAME_TYPE", "SHORT_NAME", "ScoundrelSpielGame", "ScoundrelSpielState"]

if SHORT_NAME not in pyspiel.registered_names():
    pyspiel.register_game(GAME_TYPE, ScoundrelSpielGame)
