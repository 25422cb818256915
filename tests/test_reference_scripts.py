"""The reference-table scripts: resumable, nothing lost on a stop, rows that add up."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import scoundrel_core as sc

ROOT = Path(__file__).resolve().parents[1]
BOTS = ROOT / "scripts" / "openspiel_bots.py"
TABLE = ROOT / "scripts" / "reference_agents.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def lines(path: Path) -> list[dict[str, object]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        with contextlib.suppress(json.JSONDecodeError):  # a line cut short by the kill
            out.append(json.loads(line))
    return out


@pytest.mark.slow
def test_bot_games_resume_after_a_kill_and_replay_on_the_rules(tmp_path: Path) -> None:
    out = tmp_path / "bots.jsonl"
    args = [str(BOTS), "--seeds", "0:6", "--bots", "mcts:2,ismcts:2", "--out", str(out)]
    proc = subprocess.Popen([sys.executable, *args], cwd=ROOT, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and (not out.exists() or len(lines(out)) < 2):
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = lines(out)
    assert len(before) >= 2
    done = run(*args)
    assert done.returncode == 0, done.stderr
    rows = lines(out)
    pairs = [(r["bot"], r["seed"]) for r in rows]
    assert sorted(pairs) == sorted({(b, s) for b in ("mcts", "ismcts") for s in range(6)})
    assert rows[: len(before)] == before  # the games stored before the kill are kept
    for r in rows:  # every stored line replays on the library's rules to its score
        s = sc.new_game(seed=int(str(r["seed"])))
        for text in str(r["actions"]).split():
            s = sc.apply(s, text)
        assert s.score == r["score"] and s.won == r["won"]
    again = run(*args)  # nothing left to play
    assert again.returncode == 0 and lines(out) == rows


def test_reference_table_reads_the_stored_games(tmp_path: Path) -> None:
    out = tmp_path / "table.csv"
    done = run(str(TABLE), "--only-read", "--out", str(out))
    assert done.returncode == 0, done.stderr
    text = run(str(TABLE), "--markdown", "--out", str(out)).stdout
    header = text.splitlines()[0]
    assert "win rate (95% Wilson)" in header and "winnable deals lost" in header
    rows = {(r.split(" | ")[0].strip("| "), r.split(" | ")[1]) for r in text.splitlines()[2:]}
    assert ("classic/strict", "perfect information") in rows
    assert ("hard/strict", "fair") in rows
    # the ceiling loses no winnable deal, by definition
    ceiling = [r for r in text.splitlines() if "perfect information" in r]
    assert all("| 0.0% (0 of" in r for r in ceiling)


def test_seeds_are_written_as_runs() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import reference_agents as ra
    finally:
        sys.path.pop(0)
    assert ra.seeds_text(range(10_000)) == "0-9999"
    assert ra.seeds_text([0, 1, 2, 5, 7, 8]) == "0-2, 5, 7-8"
    assert ra.seeds_text(range(0, 20, 2)) == "10 seeds in 0-18"


def test_the_docs_table_is_the_stored_rows() -> None:
    """docs/reference-scores.md shows data/reference-agents.csv as `--markdown` prints it.

    (The paired table below it is read live from the games files, which other
    engineers rewrite, so it is regenerated with the same command, not compared here.)
    """
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import reference_agents as ra
    finally:
        sys.path.pop(0)
    page = ra.DOCS.read_text(encoding="utf-8")
    assert ra.with_table(page, ra.markdown(ra.read_rows(ra.OUT))) == page, (
        "docs/reference-scores.md is stale: run python scripts/reference_agents.py --docs"
    )
