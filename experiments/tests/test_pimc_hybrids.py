"""experiments/pimc_hybrids.py: the PIMC / fair-agent hybrids choose as their parts do,
and their rows, resumption and table hold together."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lab import EXPERIMENTS, load_experiment, walk
from scoundrel_core.info import InfoState
from scoundrel_solver.fair.agent import FairAgent, choice_key
from scoundrel_solver.fair.config import configs_with
from scoundrel_solver.fair.pimc import PimcAgent, sample_orders, tally_actions

SEARCH = configs_with(endgame=0)
"""The fair agent's search alone, without its endgame."""

SCRIPT = EXPERIMENTS / "pimc_hybrids.py"
pimc_games = load_experiment("pimc_hybrids")


def _info(seed: int, n_cards: int, steps: int) -> InfoState:
    """What the player knows after ``steps`` random moves of a small random deal."""
    return walk(seed, n_cards, steps)[1]


@given(st.integers(0, 10**6), st.integers(7, 10), st.integers(0, 3), st.integers(0, 8))
@settings(max_examples=15, deadline=None)
def test_hybrids_choose_as_their_parts(seed: int, n_cards: int, steps: int, above: int) -> None:
    info = _info(seed, n_cards, steps)
    assume(len(info.legal_actions()) > 1)
    pimc = PimcAgent(samples=4, seed=3)
    early = len(info.unseen) > above
    by_pimc = PimcAgent(samples=4, seed=3).choose(info)[0]
    by_fair = FairAgent(SEARCH).choose(info)[0]
    assert pimc_games.PimcThenFair(pimc, FairAgent(SEARCH), above).choose(info)[0] == (
        by_pimc if early else by_fair)
    assert pimc_games.FairThenPimc(pimc, FairAgent(SEARCH), above).choose(info)[0] == (
        by_fair if early else by_pimc)
    # the filter: the fair agent's best among the actions PIMC's tally wins most with
    # (the tally is the slow twin of the filter's own win count)
    chosen = pimc_games.PimcWinsThenFair(pimc, FairAgent(SEARCH), above).choose(info)[0]
    if not early:
        assert chosen == by_fair
        return
    tallies = tally_actions(info, sample_orders(info, 4, 3))
    top = max(t.wins for t in tallies)
    allowed = {t.action for t in tallies if t.wins == top}
    vals = [v for v in FairAgent(SEARCH).evaluate(info) if v.action in allowed]
    assert chosen == max(vals, key=choice_key).action


@given(st.integers(0, 10**6), st.integers(9, 12), st.integers(0, 4), st.randoms(),
       st.integers(0, 8))
@settings(max_examples=10, deadline=None)
def test_hybrids_do_not_peek(seed: int, n_cards: int, steps: int, shuffler: random.Random,
                             above: int) -> None:
    """Two deals that differ only in the order of the unseen cards get the same decision."""
    s, info = walk(seed, n_cards, steps)
    assume(not s.is_over and len(info.unseen) >= 4)
    d, nb = list(s.dungeon), len(info.bottom)
    hidden = d[: len(d) - nb]
    shuffler.shuffle(hidden)
    info2 = InfoState.from_state(s.with_dungeon(hidden + d[len(d) - nb:]), info.bottom)
    assert info2 == info
    for kind in (pimc_games.PimcThenFair, pimc_games.PimcWinsThenFair, pimc_games.FairThenPimc):
        one = kind(PimcAgent(samples=4, seed=2), FairAgent(SEARCH), above).choose(info)
        two = kind(PimcAgent(samples=4, seed=2), FairAgent(SEARCH), above).choose(info2)
        assert one == two, kind.__name__


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=600)


def test_play_resume_and_table(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    # an old row without variant keys counts as classic/strict and is not played again
    out.write_text(json.dumps({"agent": "late", "samples": 2, "seed": 1, "won": False,
                               "score": -1, "decisions": 1, "seconds": 0.0,
                               "decision_seconds": [0.0], "pimc_above": 30}) + "\n")
    r = _run("play", "--agent", "late", "--samples", "2", "--pimc-above", "30",
             "--seeds", "0:2", "--out", str(out))
    assert r.returncode == 0, r.stderr
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["seed"] for x in rows] == [1, 0]
    assert rows[1]["variant"] == "classic" and rows[1]["pimc_above"] == 30
    # hard rows beside them: another game, so seed 1 is played for it
    r = _run("play", "--agent", "pimc", "--samples", "2", "--variant", "hard",
             "--seeds", "1:2", "--out", str(out))
    assert r.returncode == 0, r.stderr
    table = _run("table", str(out))
    assert table.returncode == 0, table.stderr
    assert "| late<=30 | 2 | 0-1 | " in table.stdout
    assert "| pimc (hard/strict) | 2 | 1-1 | " in table.stdout
    only = _run("table", str(out), "--agent", "late")
    assert "| late<=30 | 2 | 0-1 | " in only.stdout and "| pimc" not in only.stdout
    none = _run("table", str(out), "--variant", "easy")
    assert none.returncode != 0 and "no games in" in none.stderr


def test_bad_options_are_named(tmp_path: Path) -> None:
    out = str(tmp_path / "g.jsonl")
    r = _run("play", "--variant", "nope", "--out", out)
    assert r.returncode != 0 and "unknown variant 'nope'" in r.stderr
    assert "Traceback" not in r.stderr
    r = _run("play", "--agent", "filter", "--out", out)
    assert r.returncode != 0 and "--agent filter needs --pimc-above" in r.stderr
    r = _run("play", "--agent", "late", "--samples", "0", "--pimc-above", "30", "--out", out)
    assert r.returncode != 0 and "samples 0 must be an integer" in r.stderr
    assert "Traceback" not in r.stderr and not Path(out).exists()


def test_filter_overrides_the_agent_where_pimc_wins_more() -> None:
    # here the fair agent alone plays 9C/w, which wins none of the four sampled
    # dungeons; 9C/f and 10H win all four, so the filter picks between those two
    info = InfoState.from_text(
        "classic/strict health=16 weapon=9D last=- potion=0 resolved=2 fled=0 "
        "room=[10H 9C] dungeon=[JC AC 5S 7S JS AS 8D 8H] | bottom=[]")
    assert str(FairAgent(SEARCH).choose(info)[0]) == "9C/w"
    wins = {str(t.action): t.wins for t in tally_actions(info, sample_orders(info, 4, 3))}
    assert wins == {"9C/f": 4, "9C/w": 0, "10H": 4}
    pimc = PimcAgent(samples=4, seed=3)
    chosen = pimc_games.PimcWinsThenFair(pimc, FairAgent(SEARCH), 0).choose(info)[0]
    vals = {str(v.action): v.value for v in FairAgent(SEARCH).evaluate(info)}
    assert str(chosen) == max(("9C/f", "10H"), key=lambda a: vals[a])
