"""Text for the terminal: the position, the actions, hints and the review.

Everything returns lines of text; :class:`Palette` adds ANSI colour for the
card kinds (monsters red, weapons cyan, potions green) when asked to, and
adds nothing otherwise, so text for a pipe carries no control codes.

>>> Palette(colour=False).paint("fight KS with 9D")
'fight KS with 9D'
>>> Palette(colour=True).paint("KS")
'\\x1b[1;31mKS\\x1b[0m'
"""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import scoundrel_core as sc
from scoundrel_core import Card, Kind

from ..coach.labels import INACCURACY
from ..coach.words import action_effect, weapon_text
from ..fair.config import agent_config
from .session import Session

if TYPE_CHECKING:  # the review and the agent pull in numba: load them only when used
    from ..coach.review import Decision, Review
    from ..fair.agent import ActionValue

__all__ = [
    "HELP",
    "Palette",
    "action_effect_text",
    "plural",
    "render_actions",
    "render_game_over",
    "render_hint",
    "render_position",
    "render_review",
]

_RESET: Final = "\x1b[0m"
_KIND_COLOUR: Final = {"C": "\x1b[1;31m", "S": "\x1b[1;31m", "D": "\x1b[36m", "H": "\x1b[32m"}
_CARD: Final = re.compile(r"(?<![\w])(?:10|[2-9JQKA])([CSDH])(?![\w])")
_KIND_NAME: Final = {Kind.MONSTER: "monster", Kind.WEAPON: "weapon", Kind.POTION: "potion"}
_LABEL_PLURAL: Final = {"inaccuracy": "inaccuracies", "mistake": "mistakes",
                        "blunder": "blunders"}

HELP: Final = """\
Commands (one per line):
  N            play action number N of the list
  7D  5H       equip a weapon, drink a potion (cards as rank then suit: 10C, QS, AS)
  KS/w  KS/f   fight a monster with the weapon (/w) or barehanded (/f)
  flee         send the whole room to the bottom of the dungeon
  hint         every legal action with the fair agent's value (expected final score
               plus its win bonus x the chance of winning), best first, marked exact or
               estimated. The fair agent sees only what you see (never the order
               of the dungeon); the exact solver, which does see it, is used
               only for the review after the game.
  undo [N]     take back the last N actions (default 1)
  save FILE    write the game so far as a game record (JSON)
  help         this text
  quit         stop (end of input and Ctrl-C quit too)"""
"""The text of ``help`` in ``scoundrel-play``."""


@dataclass(frozen=True)
class Palette:
    """Colour for card kinds, or plain text."""

    colour: bool = False

    def paint(self, text: str) -> str:
        """``text`` with every card in it coloured by kind (unchanged without colour)."""
        if not self.colour:
            return text
        return _CARD.sub(lambda m: f"{_KIND_COLOUR[m.group(1)]}{m.group(0)}{_RESET}", text)

    def bold(self, text: str) -> str:
        """``text`` in bold when colour is on."""
        return f"\x1b[1m{text}{_RESET}" if self.colour else text


def plural(n: int, word: str) -> str:
    """``1 action``, ``2 actions``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(map(str, cards))


def _dungeon_lines(game: Session) -> list[str]:
    """What the player can know of the dungeon: the unseen cards by kind, the fled bottom."""
    info = game.info
    kinds = Counter(c.kind for c in info.unseen)
    unseen = ", ".join(plural(kinds[k], _KIND_NAME[k]) for k in Kind)
    lines = [f"Dungeon: {plural(info.dungeon_size, 'card')}, {len(info.unseen)} unseen ({unseen})"]
    if info.bottom:
        lines.append(f"  then at the bottom, in this order, the fled cards {_cards(info.bottom)}")
    return lines


def render_position(game: Session, pal: Palette) -> list[str]:
    """The room, health, weapon and the dungeon as the player knows it."""
    s = game.state
    lines = [
        pal.bold(f"Room {game.room_number()} (step {game.steps + 1})")
        + f"  health {s.health}/{sc.MAX_HEALTH}  {weapon_text(s)}"
        + ("  potion drunk in this room" if s.potion_used else ""),
        "  " + "   ".join(f"{c} {_KIND_NAME[c.kind]} {c.value}" for c in s.room),
        *("  " + line for line in _dungeon_lines(game)),
    ]
    return [pal.paint(line) for line in lines]


def action_effect_text(game: Session, a: sc.Action) -> str:
    """What playing ``a`` now would do, in words."""
    # Only visible consequences are shown (health, weapon), never the cards a refill deals.
    before = game.state
    after = sc.apply(before, a)
    text = action_effect(a, before, after)
    if after.lost:
        text += " (you die)"
    elif after.won:
        text += " (the dungeon is cleared)"
    return text


def render_actions(game: Session, pal: Palette) -> list[str]:
    """The legal actions, numbered from 1, with what each would do."""
    return [pal.paint(f"  {i:>2}  {a!s:<6} {action_effect_text(game, a)}")
            for i, a in enumerate(game.legal(), 1)]


def render_hint(game: Session, values: Sequence[ActionValue], pal: Palette) -> list[str]:
    """The fair agent's values, best first, with the action numbers of the list."""
    number = {a: i for i, a in enumerate(game.legal(), 1)}
    from ..fair.agent import ranked  # here: values exist only once the agent has loaded

    samples = max((v.samples for v in values), default=0)
    if samples:
        how_it = (f"endgame: it samples {samples} dungeon orders, solves each as if it "
                  "were known, and plays the action that wins most of them, then the best "
                  "mean score")
    else:
        how_it = (f"it maximises expected score + "
                  f"{agent_config(game.state.variant).win_bonus:g} x win chance")
    if any(v.search_win_chance is not None for v in values):
        # the agent ranks by its search's numbers; the ones printed are recalibrated
        how_it += ", as its search estimates them; shown: calibrated on its own games"
    lines = [f"Fair agent (sees only what you see), best first ({how_it}):",
             "       action  win chance  expected score"]
    for v in ranked(game.info, values):
        how = "exact" if v.exact else ("sampled" if v.samples else "estimated")
        lines.append(pal.paint(f"  {number[v.action]:>2}  {v.action!s:<6} "
                               f"{100 * v.win_chance:9.1f}%  {v.expected_score:14.1f}  {how}"))
    return lines


def render_game_over(game: Session, pal: Palette) -> list[str]:
    """The lines shown when the game ends: the result and the score."""
    s = game.state
    outcome = "won" if s.won else "lost"
    return [pal.bold(f"Game over: you {outcome} with score {s.score} "
                     f"after {plural(game.steps, 'action')}.")]


def _outcome(score: int | None) -> str:
    if score is None:
        return "game not finished"
    return f"{score} ({'won' if score > 0 else 'lost'})"


def _decision_lines(d: Decision) -> list[str]:
    s = d.before
    where = (f"step {d.step}, room {d.room}: health {s.health}, {weapon_text(s)}, "
             f"room {_cards(s.room)}")
    played, agent = d.row(d.played), d.row(d.choice)
    how = "exact" if d.exact else "estimated"
    if played["samples"] and agent["samples"]:  # the endgame: shares of sampled orders won
        how = (f"won in {round(played['search_win_chance'] * played['samples'])} and "
               f"{round(agent['search_win_chance'] * agent['samples'])} of {agent['samples']} "
               "sampled orders")
    return [f"    {where}",
            f"        played {d.played!s:<6} win {100 * played['win_chance']:5.1f}%  "
            f"expected score {played['expected_score']:6.1f}   {d.label}",
            f"        agent  {d.choice!s:<6} win {100 * agent['win_chance']:5.1f}%  "
            f"expected score {agent['expected_score']:6.1f}   "
            f"drop {100 * (d.drop or 0.0):4.1f} points ({how})"]


def _turning_line(rev: Review) -> str:
    """The hindsight turning point in one line (the solver's words, as the web's)."""
    tp = rev.turning
    if tp.outcome == "turned":
        d = next((d for d in rev.decisions if d.step == tp.step), None)
        played = f" ({d.played})" if d is not None else ""
        return (f"  Turning point: after step {tp.step}{played} even perfect play could no "
                "longer win\n    (hindsight: the exact solver on the known deal).")
    return {"won": "  Turning point: none, you won.",
            "winnable": "  Turning point: none, the game can still be won.",
            "never": "  Turning point: none, the deal could not be won even with perfect "
                     "play (the exact solver, seeing the whole dungeon).",
            "unproven": "  Turning point: unproven (the exact solver's search was stopped "
                        "by its node cap).",
            "unknown": "  Turning point: not known (the order of the unseen cards is not "
                       "known)."}[tp.outcome]


def _labels_line(rev: Review) -> str:
    counts = rev.counts()
    told = ", ".join(f"{n} {word if n == 1 else _LABEL_PLURAL[word]}"
                     for word, n in counts.items())
    acc = ("no live decision" if rev.accuracy is None else
           f"accuracy {rev.accuracy:.1f}% over {plural(rev.live_decisions, 'live decision')}")
    return f"  Your {plural(len(rev.decisions), 'decision')}: {told}; {acc}"


def render_review(rev: Review, pal: Palette, width: int = 88) -> list[str]:
    """The review: three scores, the optimal line, the labels and accuracy of the decisions
    (by the drop in the fair agent's chance of winning against its own choice), the
    hindsight turning point and the key moments (the worst decisions)."""
    best = rev.best
    proof = ("proven" if best.proven else
             f"not proven (search stopped by {best.stopped_by}; at most {best.upper_bound})")
    lines = [
        pal.bold("Review"),
        f"  Your score:          {_outcome(rev.final.score)}",
        f"  Fair agent's score:  {_outcome(rev.fair.score)} on the same deal, "
        f"seeing only what a player sees ({plural(len(rev.fair.exact), 'decision')})",
        f"  Best possible score: {_outcome(best.best_score)}, {proof}, by the exact solver "
        "(it sees the whole dungeon)",
        "  Optimal line:",
    ]
    lines += textwrap.wrap(" ".join(best.line), width, initial_indent="    ",
                           subsequent_indent="    ")
    if not rev.decisions:
        lines.append("  No decisions to review yet.")
        return [pal.paint(line) for line in lines]
    lines.append(_labels_line(rev))
    lines += _turning_line(rev).split("\n")
    worst = rev.key_moments
    if worst:
        lines.append("  Key moments, by the drop in the fair agent's chance of winning "
                     "against its own choice:")
        for d in worst:
            lines += _decision_lines(d)
    else:
        lines.append(f"  None cost {100 * INACCURACY:g} points or more of the fair agent's "
                     "chance of winning against its own choice (beyond the noise of its "
                     "samples): no key moment.")
    return [pal.paint(line) for line in lines]
