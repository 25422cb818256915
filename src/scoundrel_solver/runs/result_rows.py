"""One check for a solver result read back from a file: what the rules cannot produce is refused.

Every reader of results (``scoundrel-solve --out`` resuming, ``scoundrel-census
import`` of results files and of census exports) passes each row through
:func:`check_row`, so a row is trusted the same way everywhere: a score the game
cannot reach, a bound below the score, ``winnable`` that contradicts the score,
NaN or infinite seconds, integers past what the store can hold, a variant name
that is not one: each is a :class:`BadRow` naming the file and line.

A results file's row also carries its deal (``deck``) and the line that reached
its score (``line``): :func:`check_line` replays that line on the seed's deal and
refuses a deck that is not the seed's, a step the rules do not allow, and a line
that does not end the game on the row's ``best_score``. So a row's score is one the
deal can give, checked in well under a millisecond per row (no search).

Two proven rows for one seed that disagree cannot both be right; readers report
them with :func:`conflict`.

>>> row = {"seed": 4, "variant": "hard", "weapon_rule": "strict", "best_score": 14,
...        "upper_bound": 14, "proven": True, "winnable": True, "nodes": 10, "seconds": 0.1}
>>> check_row(row, "r.jsonl:1")["best_score"]
14
>>> check_row({**row, "winnable": False}, "r.jsonl:1")
Traceback (most recent call last):
...
scoundrel_solver.runs.result_rows.BadRow: r.jsonl:1: winnable false, but a proven score of 14 wins
"""

from __future__ import annotations

import math
from typing import Any, Final

import numpy as np

import scoundrel_core as sc
from scoundrel_core.actions import ACTIONS
from scoundrel_core.rules import apply_trusted, legal_ids

__all__ = ["BEST_SCORE", "MAX_LIMIT", "MAX_LINE_ACTIONS", "WORST_SCORE", "BadRow", "check_line",
           "check_row", "conflict", "line_score", "node_limit", "replay_score", "seconds_limit"]

WORST_SCORE: Final = -188
"""The lowest score of any game (every monster left in play after the health is gone)."""
BEST_SCORE: Final = 30
"""The highest: 20 health and a last potion of 10."""
_MAX_INT: Final = 2**63 - 1  # what SQLite (the census store) and numpy int64 hold
MAX_LIMIT: Final = _MAX_INT
"""The largest ``max_nodes`` a row may carry (SQLite's and numpy's int64): the commands'
parsers refuse a larger ``--max-nodes`` with this same bound, so a run never writes a row
its own reader refuses."""
MAX_LINE_ACTIONS: Final = 2000
"""The longest line a row may carry: a game resolves 44 cards, and a solver's line flees
far fewer times than that; a longer line is refused unread, so a row's replay is bounded."""
# The canonical text of every action (as the solver writes lines): one dict look-up a step.
# A potion or a weapon has one action, the even id (its odd id prints the same text).
_ACTION_IDS: Final = {str(a): int(a) for a in reversed(ACTIONS)}
_CARD_IDS: Final = {str(c): c.id for c in sc.FULL_DECK}
_STOPS: Final = (None, "max_nodes", "max_seconds")


class BadRow(sc.ScoundrelError):
    """A result row that no solve could have written; the message names where it is."""


def _integer(row: dict[str, Any], key: str, where: str, low: int, high: int) -> int:
    value = row.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRow(f"{where}: {key} {sc.excerpt(value, 40)} is not an integer")
    if not low <= value <= high:
        raise BadRow(f"{where}: {key} {sc.excerpt(value, 40)} is outside {low}..{high}")
    return value


def _number(value: object, key: str, where: str, positive: bool) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadRow(f"{where}: {key} {sc.excerpt(value, 40)} is not a number")
    if isinstance(value, int) and not -_MAX_INT <= value <= _MAX_INT:
        raise BadRow(f"{where}: {key} {sc.excerpt(value, 40)} is out of range")
    f = float(value)
    if not math.isfinite(f) or f < 0 or (positive and f == 0):
        need = "a positive" if positive else "a non-negative"
        raise BadRow(f"{where}: {key} {value!r} is not {need} finite number")
    return f


def node_limit(value: object) -> int:
    """A ``max_nodes`` limit as every reader and every parser takes it: an integer
    1..:data:`MAX_LIMIT`; else a ``ValueError`` saying so (the caller names the value).

    >>> node_limit(2**63)
    Traceback (most recent call last):
    ValueError: is not an integer 1..9223372036854775807
    """
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_LIMIT:
        raise ValueError(f"is not an integer 1..{MAX_LIMIT}")
    return value


def seconds_limit(value: object) -> float:
    """A ``max_seconds`` limit as every reader and every parser takes it: a finite number
    above 0 (``inf`` and ``nan`` are refused: a row must be written as JSON, and no
    limit is written as null); else a ``ValueError`` saying so."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("is not a positive finite number")
    if isinstance(value, int) and not 0 < value <= MAX_LIMIT:
        raise ValueError("is not a positive finite number")
    f = float(value)
    if not (math.isfinite(f) and f > 0):
        raise ValueError("is not a positive finite number")
    return f


def check_row(row: Any, where: str) -> dict[str, Any]:
    """The row itself if a solve could have written it; else a :class:`BadRow`.

    ``where`` names it (``file:line``). A row whose seed is null (a deck or a
    position solved by hand) is not about a seed and is returned unchecked: readers
    keep it and never count it. ``stopped_by``, ``max_nodes`` and ``max_seconds``
    may be absent (census exports have no ``stopped_by``).
    """
    if not isinstance(row, dict):
        raise BadRow(f"{where}: not a solver result (expected a JSON object)")
    if "seed" not in row:
        raise BadRow(f"{where}: not a solver result (no seed)")
    if row["seed"] is None:
        return row
    _integer(row, "seed", where, 0, sc.MAX_SEED)
    missing = [k for k in ("variant", "weapon_rule", "best_score", "upper_bound", "proven",
                           "winnable", "nodes", "seconds") if k not in row]
    if missing:
        raise BadRow(f"{where}: not a solver result (missing {', '.join(missing)})")
    if row["variant"] not in sc.FLEE_RULES:
        raise BadRow(f"{where}: variant {sc.excerpt(row['variant'], 40)} is not one of "
                     f"{', '.join(sc.FLEE_RULES)}")
    if row["weapon_rule"] not in sc.WEAPON_RULES:
        raise BadRow(f"{where}: weapon_rule {sc.excerpt(row['weapon_rule'], 40)} is not one "
                     f"of {', '.join(sc.WEAPON_RULES)}")
    best = _integer(row, "best_score", where, WORST_SCORE, BEST_SCORE)
    bound = _integer(row, "upper_bound", where, WORST_SCORE, BEST_SCORE)
    if bound < best:
        raise BadRow(f"{where}: upper_bound {bound} is below best_score {best}")
    proven = row["proven"]
    if not isinstance(proven, bool):
        raise BadRow(f"{where}: proven {sc.excerpt(proven, 40)} is not true or false")
    winnable = row["winnable"]
    if proven:
        if bound != best:
            raise BadRow(f"{where}: a proven row has upper_bound {bound} = best_score {best}")
        if winnable is not (best > 0):
            raise BadRow(f"{where}: winnable {_json(winnable)}, but a proven score of {best} "
                         f"{'wins' if best > 0 else 'loses'}")
    elif winnable is not (True if best > 0 else None):
        raise BadRow(f"{where}: winnable {_json(winnable)} on an unproven row whose best line "
                     f"scores {best} (true if it wins, else null)")
    _integer(row, "nodes", where, 0, _MAX_INT)
    _number(row["seconds"], "seconds", where, positive=False)
    stop = row.get("stopped_by")
    if stop not in _STOPS:
        raise BadRow(f"{where}: stopped_by {sc.excerpt(stop, 40)} is not null, "
                     "\"max_nodes\" or \"max_seconds\"")
    if "stopped_by" in row and (stop is None) != proven:
        raise BadRow(f"{where}: stopped_by {_json(stop)} on a row that is "
                     f"{'proven' if proven else 'not proven'}")
    for key, limit in (("max_nodes", node_limit), ("max_seconds", seconds_limit)):
        if row.get(key) is not None:
            try:
                limit(row[key])
            except ValueError as err:
                raise BadRow(f"{where}: {key} {sc.excerpt(row[key], 40)} {err}") from None
    return row


def replay_score(start: sc.State, line: list[Any]) -> int:
    """The score at the end of ``line`` played from ``start``; an
    :class:`~scoundrel_core.IllegalActionError` names the first step the rules refuse, a
    ``ValueError`` a line that stops before the game ends.

    The fast path of :func:`scoundrel_core.play_line`, which it must agree with (a test
    compares them on generated lines): a line in the solver's own notation is checked
    against ``legal_ids`` and played by ``apply_trusted``; any other spelling goes
    through the checked :func:`scoundrel_core.apply`.
    """
    s = start
    for i, text in enumerate(line):
        a = _ACTION_IDS.get(text) if isinstance(text, str) else None
        if a is not None and a in legal_ids(s):
            s = apply_trusted(s, a)
            continue
        try:
            s = sc.apply(s, text)
        except sc.IllegalActionError as err:
            raise sc.IllegalActionError(f"step {i + 1}: {err}") from None
    if not s.is_over:
        raise ValueError(f"the line stops after {len(line)} steps, before the game ends")
    score = s.score
    assert score is not None
    return int(score)


class _DeckDiffers(ValueError):
    pass


def line_score(seed: int, variant: sc.Variant, line: list[Any],
               deck: list[Any] | None = None) -> int:
    """The score at the end of ``line`` played on seed ``seed``'s deal, with the errors of
    :func:`replay_score` (and a ``ValueError`` when ``deck``, given, is not the deal). A
    line in the solver's notation is replayed by the compiled twin
    (:mod:`._replay_kernel`, a few microseconds); any other line, and any line it
    refuses, by :func:`replay_score`, which words the error."""
    from ._replay_kernel import DECK_DIFFERS, ENDS, replay_line

    ids = [_ACTION_IDS.get(t) if isinstance(t, str) else None for t in line]
    cards = [] if deck is None else [_CARD_IDS.get(c) if isinstance(c, str) else None
                                     for c in deck]
    if None not in ids and None not in cards:
        found, score, _ = replay_line(seed, variant.flee_code, variant.wear_code,
                                      np.array(ids, np.int64), np.array(cards, np.int64))
        if found == ENDS:
            return score
        if found == DECK_DIFFERS:
            raise _DeckDiffers(f"deck is not the deal of seed {seed}")
    elif deck is not None and deck != [str(c) for c in sc.deal(seed)]:
        raise _DeckDiffers(f"deck is not the deal of seed {seed}")
    return replay_score(sc.new_game(seed=seed, variant=variant), line)


def check_line(row: dict[str, Any], where: str) -> dict[str, Any]:
    """The row (already passed by :func:`check_row`) if its line, replayed on its seed's
    deal, ends the game on its ``best_score``; else a :class:`BadRow` naming ``where``.

    A ``deck``, when the row has one, must be the seed's deal. Rows without a seed are
    returned as they are (they are never counted).
    """
    seed = row["seed"]
    if seed is None:
        return row
    line = row.get("line")
    if not isinstance(line, list):
        raise BadRow(f"{where}: line {sc.excerpt(line, 40)} is not a list of actions "
                     "(a results row carries the line that reached its score)")
    if len(line) > MAX_LINE_ACTIONS:
        raise BadRow(f"{where}: a line of {len(line):,} actions (at most "
                     f"{MAX_LINE_ACTIONS:,}); no solve writes one")
    deck = row.get("deck")
    if deck is not None and not isinstance(deck, list):
        raise BadRow(f"{where}: deck {sc.excerpt(deck, 40)} is not a list of cards")
    try:
        score = line_score(seed, sc.get_variant(row["variant"], row["weapon_rule"]), line,
                           deck)
    except _DeckDiffers as err:
        raise BadRow(f"{where}: {err}") from None
    except (sc.IllegalActionError, ValueError) as err:
        raise BadRow(f"{where}: the line is not a game of seed {seed} "
                     f"({row['variant']}/{row['weapon_rule']}): {err}") from None
    if score != row["best_score"]:
        raise BadRow(f"{where}: best_score {row['best_score']}, but the line reaches "
                     f"{score} on seed {seed}")
    return row


def _json(value: object) -> str:
    if value is None or isinstance(value, bool):
        return {True: "true", False: "false", None: "null"}[value]
    return sc.excerpt(value, 40)


def conflict(seed: int, variant: str, first: tuple[int, str], second: tuple[int, str]) -> BadRow:
    """The error for two proven rows of one deal that disagree: ``(score, where)`` each."""
    return BadRow(
        f"{second[1]}: seed {seed} ({variant}) is proven to score {second[0]} here but "
        f"{first[0]} at {first[1]}; one of them is wrong (remove it and run again)"
    )
