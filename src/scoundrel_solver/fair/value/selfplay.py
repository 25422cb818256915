"""The fair agent plays seeded deals and every decision becomes a row of training data.

One game is one JSON line (:func:`play_recorded`), appended as soon as the game
ends (:func:`record_games`): a run stopped at any moment loses at most the game
in flight, and the same command resumes, skipping the seeds of that variant
already in the file. :func:`to_parquet` flattens the games into one row per
decision with the columns of :data:`DECISION_COLUMNS` (``data/README.md``
documents them).

A run may open each game with a few random legal moves (``explore``): the deal's
seed draws how many (0 to ``explore``) and which, and the agent plays the rest.
Only the agent's decisions are recorded, so every recorded decision's outcome is
still the agent's own play from there; those games reach positions its own play
never does, and lose games it would have won (under easy, which it always wins, they
are the only losses there are to calibrate against).

The agent plays exactly as :class:`~..agent.FairAgent` does: at each decision
it values every legal action (:meth:`~..agent.FairAgent.evaluate`) and plays
the one :func:`~..agent.choice` picks, which is the action ``choose`` plays. The
win chances and expected scores recorded are the search's (``search_win_chance`` and
``search_expected_score`` where the variant's shown numbers are calibrated,
:mod:`.shown`): the calibration is fitted on them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

import scoundrel_core as sc
from scoundrel_core.info import InfoState, observe

from ...errors import SolverError
from ...runs.jsonl import append_missing, read_json_lines
from ..agent import FairAgent, choice
from ..api import MAX_ACTIONS
from .features import STATE_COLUMNS, UNSEEN_COLUMNS, phase, state_row

__all__ = [
    "DECISION_COLUMNS",
    "FORMAT",
    "MAX_EXPLORE",
    "MAX_GAMES",
    "decision_rows",
    "done_seeds",
    "explored_opening",
    "games_in",
    "play_recorded",
    "record_games",
    "to_parquet",
]

FORMAT: Final = "scoundrel-value-games/1"
"""The ``format`` of every game line: a reader refuses lines of another format."""
MAX_GAMES: Final = 1_000_000
"""The most games one run may be asked to play (about two weeks of one core)."""
MAX_EXPLORE: Final = 40
"""The most random moves an explored game may open with (a game has at most 120)."""

DECISION_COLUMNS: Final = (
    "seed", "variant", "agent_version", "decision", *STATE_COLUMNS, "phase",
    "action", "win_chance", "expected_score", "value", "exact", "samples",
    "actions", "action_win_chances", "action_expected_scores", "action_exact",
    "cpu_ms", "won", "score",
)
"""The columns of one decision in the Parquet file, in order."""


def explored_opening(seed: int, explore: int) -> tuple[int, random.Random]:
    """How many random moves the game of ``seed`` opens with (0..``explore``, drawn from
    the seed) and the generator that then picks them: the same for every run."""
    if isinstance(explore, bool) or not isinstance(explore, int) or not 0 <= explore <= MAX_EXPLORE:
        raise SolverError(f"explore {explore!r:.40} must be an integer 0..{MAX_EXPLORE}")
    # a string seed is hashed the same way by every Python (random's version 2 seeding)
    rng = random.Random(f"scoundrel-explore/{seed}/{explore}")
    return rng.randint(0, explore), rng


def play_recorded(seed: int, variant: sc.Variant, agent: FairAgent,
                  clock: Callable[[], float] = time.process_time,
                  explore: int = 0) -> dict[str, Any]:
    """Play the deal ``seed`` of ``variant`` with ``agent`` and return the game's line:
    its outcome and, per decision, what the player saw and every action's values.

    With ``explore`` above 0 the game opens with the random moves of
    :func:`explored_opening`, which are not recorded: the line's ``explored`` counts
    them, and a game lost during them has no decisions."""
    s = sc.new_game(seed=seed, variant=variant.name, weapon_rule=variant.weapon_rule)
    agent.reset(seed)
    info = InfoState.initial(s)
    decisions: list[dict[str, Any]] = []
    start = clock()
    explored, rng = explored_opening(seed, explore)
    for _ in range(explored):
        if s.is_over:
            break
        action = rng.choice(sc.legal_actions(s))
        nxt = sc.apply(s, action)
        info = observe(info, action, nxt)
        s = nxt
    while not s.is_over:
        if explored + len(decisions) >= MAX_ACTIONS:
            raise SolverError(f"seed {seed} of {variant}: game not over after "
                              f"{MAX_ACTIONS} actions")
        t = clock()
        values = agent.evaluate(info)
        best = choice(info, values)
        if best is None:
            raise SolverError(f"no legal action in {info.to_text()}")
        ms = 1000.0 * (clock() - t)
        row = state_row(info)
        row.update(
            actions=[str(v.action) for v in values],
            # the search's numbers: the calibration of the shown ones is fitted on them
            action_win_chances=[v.searched_win_chance for v in values],
            action_expected_scores=[v.searched_expected_score for v in values],
            action_values=[v.value for v in values],
            action_exact=[v.exact for v in values],
            samples=max((v.samples for v in values), default=0),
            chosen=values.index(best),
            cpu_ms=round(ms, 3),
        )
        decisions.append(row)
        nxt = sc.apply(s, best.action)
        info = observe(info, best.action, nxt)
        s = nxt
    score = s.score
    assert score is not None
    from ..version import agent_version

    game = {"format": FORMAT, "seed": seed, "variant": str(variant),
            "agent_version": agent_version(), "won": s.won, "score": score,
            "cpu_seconds": round(clock() - start, 4), "decisions": decisions}
    if explore:  # only then, so that the lines of unexplored runs are as they were
        game.update(explore=explore, explored=explored)
    return game


def games_in(path: str | Path) -> Iterator[dict[str, Any]]:
    """The games of a JSON-lines file (a last line cut short by a stop is skipped);
    a line of another format is an error naming the file and line."""
    for number, game in read_json_lines(path):
        if not isinstance(game, dict) or game.get("format") != FORMAT:
            raise SolverError(f"{path}:{number}: not a game of {FORMAT}")
        yield game


def done_seeds(path: str | Path, variant: sc.Variant, explore: int | None = None) -> set[int]:
    """The seeds of ``variant`` already played in the file; given ``explore``, a game of
    ``variant`` played with another is an error (one file, one way of playing)."""
    seeds = set()
    for g in games_in(path):
        if g["variant"] != str(variant):
            continue
        if explore is not None and g.get("explore", 0) != explore:
            raise SolverError(f"{path} holds {variant} games played with explore "
                              f"{g.get('explore', 0)}, not {explore}: write to another file")
        seeds.add(int(g["seed"]))
    return seeds


def record_games(
    seeds: Iterable[int], variant: sc.Variant, out: str | Path, *,
    agent: FairAgent | None = None, stop: Callable[[], bool] = lambda: False,
    progress: Callable[[dict[str, Any]], None] | None = None, explore: int = 0,
) -> int:
    """Play every seed not yet in ``out`` and append each game as it ends; ``stop()`` is
    asked between games. Returns the number of games written."""
    explored_opening(0, explore)  # refuses a bad ``explore`` before any game is played
    player = agent or FairAgent()
    return append_missing(out, seeds, done_seeds(out, variant, explore),
                          lambda seed: play_recorded(seed, variant, player, explore=explore),
                          stop=stop,
                          progress=None if progress is None else lambda _, game: progress(game))


def decision_rows(game: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """One row per decision of a game line, with the columns of :data:`DECISION_COLUMNS`
    (``decision`` counts the game's moves, an explored opening's random ones included)."""
    first = int(game.get("explored", 0))
    for i, d in enumerate(game["decisions"]):
        k = int(d["chosen"])
        row = {"seed": game["seed"], "variant": game["variant"],
               "agent_version": game["agent_version"], "decision": first + i}
        row.update({c: d[c] for c in STATE_COLUMNS})
        row.update(
            phase=phase(int(d["unseen"])), action=d["actions"][k],
            win_chance=d["action_win_chances"][k],
            expected_score=d["action_expected_scores"][k], value=d["action_values"][k],
            exact=d["action_exact"][k], samples=d["samples"], actions=d["actions"],
            action_win_chances=d["action_win_chances"],
            action_expected_scores=d["action_expected_scores"],
            action_exact=d["action_exact"], cpu_ms=d["cpu_ms"], won=game["won"],
            score=game["score"],
        )
        yield row


def _schema() -> Any:
    import pyarrow as pa

    small = pa.int8()
    types = {
        "seed": pa.uint64(), "variant": pa.string(), "agent_version": pa.string(),
        "decision": pa.int16(), "health": small, "weapon": small, "last_kill": small,
        "potion_used": pa.bool_(), "resolved": small, "fled_last": pa.bool_(),
        "can_flee": pa.bool_(), "room": pa.list_(pa.string()), "bottom": pa.list_(pa.string()),
        "unseen": small, "cards_left": small, **dict.fromkeys(UNSEEN_COLUMNS, small),
        "phase": pa.string(), "action": pa.string(), "win_chance": pa.float64(),
        "expected_score": pa.float64(), "value": pa.float64(), "exact": pa.bool_(),
        "samples": pa.int16(), "actions": pa.list_(pa.string()),
        "action_win_chances": pa.list_(pa.float64()),
        "action_expected_scores": pa.list_(pa.float64()), "action_exact": pa.list_(pa.bool_()),
        "cpu_ms": pa.float64(), "won": pa.bool_(), "score": pa.int16(),
    }
    assert tuple(types) == DECISION_COLUMNS
    return pa.schema(list(types.items()))


def to_parquet(sources: Sequence[str | Path], out: str | Path,
               stamp: dict[str, str] | None = None) -> tuple[int, int]:
    """Write every decision of the games in ``sources`` (JSON-lines files of games, or
    Parquet files this wrote, so that a file can grow when its games files are gone) to
    one Parquet file, games ordered by variant and seed (a game found twice is kept
    once, the later); returns (games, decisions), counting only the games with a decision
    (a game lost during its explored opening has none, and a Parquet file cannot hold it)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ...provenance import parquet_metadata

    games: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for src in map(Path, sources):
        if src.suffix == ".parquet":
            try:
                table = pq.read_table(src)
            except (pa.ArrowException, OSError) as e:
                raise SolverError(f"{src}: not a Parquet file ({e})") from None
            if tuple(table.column_names) != DECISION_COLUMNS:
                raise SolverError(f"{src}: not a file of decisions (its columns differ)")
            found: dict[tuple[str, int], list[dict[str, Any]]] = {}
            for r in table.to_pylist():
                found.setdefault((r["variant"], int(r["seed"])), []).append(r)
            games.update(found)
        else:
            for g in games_in(src):
                games[(g["variant"], int(g["seed"]))] = list(decision_rows(g))
    rows = [r for key in sorted(games) for r in games[key]]
    schema = _schema()
    if stamp is not None:
        schema = schema.with_metadata(parquet_metadata(stamp))
    table = pa.Table.from_pylist(rows, schema=schema)
    pq.write_table(table, out, compression="zstd")
    return sum(1 for g in games.values() if g), len(rows)
