"""Numba's cache is keyed to the rules layer: an edited rule reaches every cached engine.

Numba keeps an engine's compiled code under the stamp of the file that defines it,
while the rules it inlines live in ``scoundrel_core/steps.py`` (and the encoding, and
``jit.py``, which compiles them). ``scoundrel_core.jit`` adds a hash of those files to
the stamp of every function it compiles. Here a copy of the packages fills a fresh
cache, then the potion rule is edited in the copy (potions heal half their value) and,
without clearing anything, the exact solver, the fair agent's search and the vector
environment must all play by the new rule: each result changes, and each still agrees
with the plain-Python rules of the same copy (``State``, which calls the edited steps).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

POTION_RULE = "health = min(MAX_HEALTH, health + value)"
HALF_POTION_RULE = "health = min(MAX_HEALTH, health + value // 2)"

# Run in the copy: one result per engine, and what the plain rules (State, through the
# copy's steps) say it should be. Small positions: the point is which rule runs.
PROBE = r'''
import json
import numpy as np
import scoundrel_core as sc
from scoundrel_core.env import ScoundrelVectorEnv
from scoundrel_core.env.observation import HEALTH
from scoundrel_core.info import InfoState
from scoundrel_solver.exact import _kernel as exact_kernel
from scoundrel_solver.exact.solve import solve_value
from scoundrel_solver.fair import _kernel as fair_kernel
from scoundrel_solver.fair.agent import FairAgent
from scoundrel_core.env import _vector_kernel


def best(s):
    """The best score from s by the plain rules: every line, tried."""
    if s.is_over:
        return s.score
    return max(best(sc.apply(s, a)) for a in sc.legal_actions(s))


# hard: no flee, so the fair agent (to whom the dungeon's order is unseen) has the
# same choices as the exact solver: the refill deals both dungeon cards at once.
position = sc.State.from_text(
    "hard/strict health=6 weapon=- last=- potion=0 resolved=0 fled=0 "
    "room=[8H 3C 4C 2D] dungeon=[6H 5S]")
exact = solve_value(position)

info = InfoState.initial(position)
values, _ = FairAgent().search(info, 2)
fair = max(v.expected_score for v in values)

env = ScoundrelVectorEnv(num_envs=3)
obs, _ = env.reset(seed=5)
games = [sc.new_game(seed=5 + i) for i in range(3)]
healths, plain = [], []
for _ in range(25):
    # A potion when one heals, else the lowest card: the potion rule must come into play.
    actions = np.zeros(3, np.int64)
    for i, g in enumerate(games):
        if g.is_over:
            continue  # the environment deals this game afresh and ignores the action
        cards = [a for a in sc.legal_actions(g) if not a.is_flee]
        potions = [a for a in cards if a.card.kind is sc.Kind.POTION]
        heals = potions and g.health < sc.MAX_HEALTH and not g.potion_used
        actions[i] = int(potions[0] if heals else cards[0])
    obs, _, terminated, _, _ = env.step(actions)
    for i in range(3):
        if games[i].is_over:
            continue
        games[i] = sc.apply(games[i], sc.Action(int(actions[i])))
        if not terminated[i]:
            healths.append(int(obs[i, HEALTH]))
            plain.append(games[i].health)

kernels = {"exact": exact_kernel.run_search, "fair": fair_kernel.search_root,
           "vector": _vector_kernel.step_all}
print(json.dumps({
    "exact": exact, "exact_rule": best(position),
    "fair": fair, "fair_rule": best(position),
    "vector": healths, "vector_rule": plain,
    "compiled": {name: fn.stats.cache_misses != {} for name, fn in kernels.items()},
}))
'''


def _probe(copy: Path, cache: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(copy), "NUMBA_CACHE_DIR": str(cache)}
    env.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                          text=True, timeout=1200, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.slow
def test_an_edited_rule_reaches_every_cached_engine(tmp_path: Path) -> None:
    copy = tmp_path / "src"
    for package in ("scoundrel_core", "scoundrel_solver"):
        shutil.copytree(SRC / package, copy / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    cache = tmp_path / "numba-cache"

    before = _probe(copy, cache)
    assert any(cache.rglob("*.nbi")), "the first run left no numba cache"
    for engine in ("exact", "fair", "vector"):
        assert before[engine] == before[f"{engine}_rule"], (engine, before)

    steps = copy / "scoundrel_core" / "steps.py"
    text = steps.read_text()
    assert text.count(POTION_RULE) == 1, "the potion rule moved: update this test"
    steps.write_text(text.replace(POTION_RULE, HALF_POTION_RULE))

    after = _probe(copy, cache)  # the same cache, not cleared
    for engine in ("exact", "fair", "vector"):
        assert after["compiled"][engine], f"the {engine} kernel was not compiled afresh"
        assert after[engine] != before[engine], f"the {engine} engine ran the old rule"
        assert after[engine] == after[f"{engine}_rule"], (engine, after)
