"""The rows of ``scoundrel-eval --out FILE``: one game per line, resumable.

Each line is one JSON object (``"format": "scoundrel-eval/1"``): the agent and
its options, the agent revision that played (``agent_version``:
:func:`~scoundrel_solver.fair.version.agent_version`, the fair agent's
version, recorded for every agent), the variant and weapon rule, the seed, and how the game went
(``score``, ``won``, ``seconds``, ``decisions``, ``exact_decisions``). The file
keeps the promises of a solver results file (:mod:`.jsonl`): a row is written
whole as soon as its game ends, under the file's lock; a stop at any moment
keeps every finished game; a full disk cuts back to the last whole row; the
same command resumes, playing only the seeds the file does not hold for that
agent, options, revision and variant. Rows of other agents, options or
revisions (rows written before ``agent_version`` existed among them) are kept
and not counted: a changed agent plays its games again rather than mixing
with the old one's.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Final

import scoundrel_core as sc

from ..fair.version import agent_version
from .jsonl import ResultsFileError, read_json_lines
from .result_rows import BEST_SCORE, WORST_SCORE
from .summary import Outcome

__all__ = ["EVAL_FORMAT", "eval_row", "finished_games"]

EVAL_FORMAT: Final = "scoundrel-eval/1"
"""The ``format`` field of every row of ``scoundrel-eval --out``."""


def eval_row(agent: str, options: dict[str, Any], variant: sc.Variant, seed: int,
             game: Outcome) -> dict[str, Any]:
    """The line written for one finished game."""
    return {"format": EVAL_FORMAT, "agent": agent, "options": options,
            "agent_version": agent_version(), "variant": variant.name,
            "weapon_rule": variant.weapon_rule, "seed": seed,
            "score": game.score, "won": game.won, "seconds": round(game.seconds, 6),
            "decisions": game.decisions, "exact_decisions": game.exact_decisions}


def _outcome(row: Any, where: str) -> Outcome:
    """A row as the report counts it, or a ResultsFileError for one no game could give."""
    def bad(why: str) -> ResultsFileError:
        return ResultsFileError(f"{where}: {why}")

    if not isinstance(row, dict) or row.get("format") != EVAL_FORMAT:
        raise bad(f"not a {EVAL_FORMAT} row; is this a file of scoundrel-eval --out?")
    score, won, secs = row.get("score"), row.get("won"), row.get("seconds")
    decisions, exact = row.get("decisions"), row.get("exact_decisions")
    if isinstance(score, bool) or not isinstance(score, int) or not (
            WORST_SCORE <= score <= BEST_SCORE):
        raise bad(f"score {sc.excerpt(score, 40)} is not a score of the game")
    if won is not (score > 0):
        raise bad(f"won {sc.excerpt(won, 20)} with a score of {score}")
    if isinstance(secs, bool) or not isinstance(secs, (int, float)) or not (
            math.isfinite(secs) and secs >= 0):
        raise bad(f"seconds {sc.excerpt(secs, 40)} is not a non-negative finite number")
    for name, value, high in (("decisions", decisions, 10**6), ("exact_decisions", exact,
                                                                decisions)):
        if isinstance(value, bool) or not isinstance(value, int) or not (
                0 <= value <= (high if isinstance(high, int) else 0)):
            raise bad(f"{name} {sc.excerpt(value, 40)} is not a count of decisions")
    assert isinstance(decisions, int) and isinstance(exact, int)  # checked just above
    return Outcome(score=score, won=won, seconds=float(secs), decisions=decisions,
                   exact_decisions=exact)


def finished_games(path: Path, agent: str, options: dict[str, Any], variant: sc.Variant,
                   seeds: Any) -> dict[int, Outcome]:
    """The games the file holds for this agent, options, revision and variant, by seed
    (in the range); the first row of a seed counts."""
    done: dict[int, Outcome] = {}
    for n, row in read_json_lines(path):
        game = _outcome(row, f"{path}:{n}")
        seed = row.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= sc.MAX_SEED:
            raise ResultsFileError(f"{path}:{n}: seed {sc.excerpt(seed, 40)} is not a seed")
        if (row.get("agent") == agent and row.get("options") == options
                and row.get("agent_version") == agent_version()
                and row.get("variant") == variant.name
                and row.get("weapon_rule") == variant.weapon_rule
                and seed in seeds and seed not in done):
            done[seed] = game
    return done
