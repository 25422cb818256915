"""The terminal's game: the coach's :class:`~scoundrel_solver.coach.session.Session` (a
game with undo) read from typed text, where an action is its number in the list shown
or its notation.

>>> import scoundrel_core as sc
>>> game = Session(sc.new_game(seed=42, variant="hard"), seed=42)
>>> a = game.read_action("1")
>>> _ = game.play(a)
>>> game.steps, game.undo(), game.steps
(1, 1, 0)
"""

from __future__ import annotations

import scoundrel_core as sc
from scoundrel_core import Action

from ..coach import session
from .commands import read_count

__all__ = ["Session"]


class Session(session.Session):
    """One deal being played in the terminal, step by step, with any number of undos."""

    def read_action(self, text: str) -> Action:
        """An action typed by the player: its number in :meth:`legal` or its notation.

        Raises :class:`IllegalActionError` with a short reason (no state dump).
        """
        t = text.strip()
        legal = self.legal()
        if not legal:
            raise sc.IllegalActionError("the game is over")
        n = read_count(t)
        if n is not None:
            if not 1 <= n <= len(legal):
                raise sc.IllegalActionError(
                    f"there is no action {sc.excerpt(t, 20)}: choose 1..{len(legal)}"
                )
            return legal[n - 1]
        a = sc.parse_action_text(t)
        reason = sc.why_illegal(self.state, a)
        if reason is not None:
            raise sc.IllegalActionError(f"{sc.excerpt(t)} is not legal here: {reason}")
        return a
