"""A search's version follows its behaviour: the fingerprint on committed positions.

The exact solver and the fair agent each ship ``fingerprint.json``: their version,
positions of every variant, and the fingerprint of their answers there. When
behaviour changes the fingerprint changes, and these tests demand a new version
(``python scripts/fingerprint.py write KIND``); nothing else changes a version.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from scoundrel_core.info import InfoState
from scoundrel_solver.census.store import solver_version as store_version
from scoundrel_solver.exact import version as exact_version
from scoundrel_solver.fair import agent_version
from scoundrel_solver.fair import version as fair_version
from scoundrel_solver.fair.config import AGENT_CONFIGS, LeafWeights, agent_config
from scoundrel_solver.provenance.fingerprint import SEARCHES, current, digest, read_record

SRC = Path(__file__).resolve().parents[1] / "src"
_PROJECT = ("scoundrel_core", "scoundrel_solver")
BEHAVIOUR_CHANGED = ("{kind}'s behaviour changed (fingerprint {now}, recorded {was} for "
                     "{version}): give it a new version with "
                     "python scripts/fingerprint.py write {kind}")


@pytest.mark.parametrize("kind", sorted(SEARCHES))
def test_the_recorded_fingerprint_is_the_behaviour_of_today(kind: str) -> None:
    record, now = current(kind)
    assert now == record.fingerprint, BEHAVIOUR_CHANGED.format(
        kind=kind, now=now[:12], was=record.fingerprint[:12], version=record.version)


def test_the_versions_are_the_records_and_the_census_stores_the_solvers() -> None:
    assert agent_version() == read_record(fair_version.RECORD_PACKAGE).version
    assert exact_version.solver_version() == read_record(exact_version.RECORD_PACKAGE).version
    assert store_version() == exact_version.solver_version()
    assert agent_version().split("+")[1].startswith("fair.")
    assert exact_version.solver_version().split("+")[1].startswith("exact.")


def test_the_positions_cover_every_variant_and_phase() -> None:
    positions = read_record(fair_version.RECORD_PACKAGE).positions
    infos = [InfoState.from_text(t) for t in positions]
    assert {i.variant for i in infos} == set(AGENT_CONFIGS)
    unseen = {len(i.unseen) for i in infos}
    assert 0 in unseen and max(unseen) > 30  # every card known .. only the leaf
    config = agent_config("classic")
    assert any(0 < len(i.unseen) <= config.endgame for i in infos if i.variant.name == "classic")
    exact = read_record(exact_version.RECORD_PACKAGE).positions
    assert {t.split()[0] for t in exact} == {str(v) for v in AGENT_CONFIGS}


def test_changing_a_weight_changes_the_fingerprint() -> None:
    """A weight of the leaf a hundredth off: the agent's answers differ, so the test above
    would demand a new version."""
    positions = [t for t in read_record(fair_version.RECORD_PACKAGE).positions
                 if t.startswith("classic/strict")]
    config = agent_config("classic/strict")
    changed = replace(config, leaf=LeafWeights(potion=config.leaf.potion + 0.01))
    assert digest(fair_version.fingerprint_lines(positions, config)) != digest(
        fair_version.fingerprint_lines(positions, changed))
    assert digest(fair_version.fingerprint_lines(positions, config)) == digest(
        fair_version.fingerprint_lines(positions))  # the table's row is what plays


@pytest.mark.parametrize("variant", ["classic/strict", "classic/equal"])
def test_each_setting_of_the_endgames_race_changes_the_fingerprint(variant: str) -> None:
    """The race's settings each leave a mark on the positions: with the scores that
    break a tie raced or not, and with the race on or off. The first decision of each
    endgame is among the positions because the last alone did not tell them apart."""
    positions = [t for t in read_record(fair_version.RECORD_PACKAGE).positions
                 if t.startswith(variant)]
    config = agent_config(variant)
    race = replace(config, endgame_cap=32, endgame_scored=32, endgame_score_margin=1.0)
    arms = [replace(race, endgame_scored=0, endgame_score_margin=float("inf")),
            replace(race, endgame_cap=0, endgame_scored=0, endgame_score_margin=float("inf"))]
    prints = {digest(fair_version.fingerprint_lines(positions, c)) for c in [race, *arms]}
    assert len(prints) == 3

def test_every_variants_shown_chances_are_in_the_fingerprint() -> None:
    """Each variant's first position is estimated, not exact, so its shown chances (the
    calibration's) enter the fingerprint: without the calibration the answers differ."""
    positions = read_record(fair_version.RECORD_PACKAGE).positions
    for variant, config in AGENT_CONFIGS.items():
        mine = [t for t in positions if InfoState.from_text(t).variant == variant]
        opening = max(mine, key=lambda t: len(InfoState.from_text(t).unseen))
        assert config.shown is not None
        assert digest(fair_version.fingerprint_lines([opening], config)) != digest(
            fair_version.fingerprint_lines([opening], replace(config, shown=None))), variant


def _run(code: str, src: Path) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"PYTHONPATH": str(src), "PATH": ""}, timeout=300, check=True)
    return done.stdout.strip()


def test_editing_comments_or_moving_code_keeps_the_versions(tmp_path: Path) -> None:
    copy = tmp_path / "src"
    for pkg in _PROJECT:
        shutil.copytree(SRC / pkg, copy / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    code = ("from scoundrel_solver.fair import agent_version; "
            "from scoundrel_solver.exact.version import solver_version; "
            "print(agent_version(), solver_version())")
    before = _run(code, copy)
    assert before == f"{agent_version()} {exact_version.solver_version()}"
    for path in (copy / "scoundrel_solver" / "fair" / "agent.py",
                 copy / "scoundrel_solver" / "exact" / "_kernel.py",
                 copy / "scoundrel_core" / "steps.py"):
        text = path.read_text()
        path.write_text(text.replace('"""', '"""A corrected comment. ', 1) + "\n# moved\n")
    assert _run(code, copy) == before
