"""scripts/fair_games.py: the per-game rows notebook 03 reads."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

import scoundrel_core as sc
from conftest import load_script
from scoundrel_solver import solve
from scoundrel_solver.fair import play_fair
from scoundrel_solver.provenance import read_provenance

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.usefixtures("warm_solver")


def _script() -> ModuleType:
    return load_script("fair_games")


def test_rooms_of_counts_refills_and_flees() -> None:
    fg = _script()
    # hard never flees: a whole game is the first room and 14 refills
    r = solve(0, variant="hard")
    assert r.winnable
    assert fg.rooms_of(r.start, r.line)[-1] == 15
    # a flee deals a new room at once
    s = sc.new_game(seed=7)
    first = str(sc.legal_actions(sc.play_line(s, "flee"))[0])
    assert fg.rooms_of(s.to_text(), ("flee", first)) == [1, 2]


def test_rows_match_play_fair_and_resume(tmp_path: Path) -> None:
    fg = _script()
    cache = tmp_path / "games.jsonl"
    assert fg.main(["--variant", "hard", "--seeds", "0:2", "--cache", str(cache)]) == 0
    assert fg.main(["--variant", "hard", "--seeds", "0:3", "--cache", str(cache)]) == 0
    rows = [json.loads(x) for x in cache.read_text().splitlines()]
    assert [r["seed"] for r in rows] == [0, 1, 2]  # the second run played only seed 2
    for row in rows:
        game = play_fair(row["seed"], "hard", "strict")
        assert (row["score"], row["won"]) == (game.score, game.won)
        assert row["exact"] == list(game.exact)
        assert len(row["decision_room"]) == row["decisions"] == len(game.actions)
        assert row["rooms"] == row["decision_room"][-1]
        assert row["exact_decisions"] == sum(game.exact)
    out = tmp_path / "games.parquet"
    assert fg.main(["--cache", str(cache), "--parquet", str(out)]) == 0
    import pandas as pd

    df = pd.read_parquet(out)
    assert set(read_provenance(out)) == {"command", "commit", "date", "version"}
    assert list(df.seed) == [0, 1, 2] and list(df.score) == [r["score"] for r in rows]
    from scoundrel_solver.fair.version import agent_version

    assert set(df.agent_version) == {agent_version()} == {r["agent_version"] for r in rows}


def test_parquet_keeps_one_revision_per_variant_and_the_winnable_losses(tmp_path: Path) -> None:
    import pandas as pd

    fg = _script()
    census = tmp_path / "census.parquet"
    pd.DataFrame({"variant": ["hard"] * 3, "weapon_rule": ["strict"] * 3,
                  "seed": pd.array([0, 1, 2], "uint64"), "winnable": [True, False, True],
                  "proven": [True, True, False]}).to_parquet(census)
    out = tmp_path / "games.parquet"
    # rows of an earlier revision, without agent_version: easy kept, hard replaced
    old = pd.DataFrame({"seed": pd.array([0, 5], "uint64"), "variant": ["easy", "hard"],
                        "weapon_rule": ["strict", "strict"], "score": [3, -4],
                        "won": [True, False]})
    old.to_parquet(out)
    cache = tmp_path / "games.jsonl"
    rows = [{"seed": s, "variant": "hard", "weapon_rule": "strict", "score": sc_,
             "won": sc_ > 0, "agent_version": "new"} for s, sc_ in ((0, -3), (1, -9), (2, 5))]
    cache.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert fg.main(["--cache", str(cache), "--parquet", str(out), "--census", str(census)]) == 0
    df = pd.read_parquet(out)
    assert list(zip(df.variant, df.seed, df.agent_version, strict=True)) == [
        ("easy", 0, fg.LEGACY_VERSION), ("hard", 0, "new"), ("hard", 1, "new"),
        ("hard", 2, "new")]
    hard = df[df.variant == "hard"]
    # seed 0: winnable and lost; seed 1: not winnable; seed 2: winnable (proof of the
    # best score not needed) and won
    assert list(hard.winnable) == [True, False, True]
    assert list(hard.winnable_loss) == [True, False, False]
    # two revisions in one cache for one variant are refused
    with cache.open("a") as f:
        f.write(json.dumps({**rows[0], "seed": 3, "agent_version": "other"}) + "\n")
    with pytest.raises(SystemExit, match="several agent revisions"):
        fg.main(["--cache", str(cache), "--parquet", str(out), "--census", str(census)])


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_stopped_run_keeps_whole_games_and_says_so(sig: int, tmp_path: Path) -> None:
    """Ctrl-C (to the whole process group) or SIGTERM: exit 130, one line, whole rows."""
    cache = tmp_path / "games.jsonl"
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "fair_games.py"), "--variant", "hard",
         "--seeds", "0:100000", "--cache", str(cache)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while not (cache.exists() and cache.read_text().count("\n") >= 2):
            assert proc.poll() is None, proc.communicate()[1]
            assert time.monotonic() < deadline, "no games written"
            time.sleep(0.05)
        os.killpg(proc.pid, sig)
        _, err = proc.communicate(timeout=120)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    saved = int(last.split("stopped: ")[1].split()[0])
    rows = [json.loads(x) for x in cache.read_text().splitlines()]  # every line whole
    assert len(rows) == saved >= 2
    assert [r["seed"] for r in rows] == list(range(saved))


def test_a_round_kept_as_parquet_gathers_as_its_cache_did(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    """A finished round's cache is kept as Parquet (data/experiments/): ``--cache`` reads
    the same games from it, a key a row lacked left out again, and refuses to play into it."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    fg = _script()
    rows = [{"seed": 0, "variant": "hard", "weapon_rule": "strict", "score": -3, "won": False,
             "exact": [True, False], "agent_version": "r"},
            {"seed": 1, "variant": "hard", "weapon_rule": "strict", "score": 4, "won": True,
             "exact": [False], "agent_version": "r", "decision_cpu_ms": [1.5]}]
    cache = tmp_path / "round.jsonl"
    cache.write_text("".join(json.dumps(r) + "\n" for r in rows))
    record = tmp_path / "round.parquet"
    keys = list(dict.fromkeys(k for r in rows for k in r))
    pq.write_table(pa.Table.from_pylist([{k: r.get(k) for k in keys} for r in rows]), record)
    assert fg.games_in(record) == fg.games_in(cache) == rows
    from_cache, from_record = tmp_path / "a.parquet", tmp_path / "b.parquet"
    census = tmp_path / "no-census.parquet"
    assert fg.main(["--cache", str(cache), "--parquet", str(from_cache),
                    "--census", str(census)]) == 0
    assert fg.main(["--cache", str(record), "--parquet", str(from_record),
                    "--census", str(census)]) == 0
    pd.testing.assert_frame_equal(pd.read_parquet(from_cache), pd.read_parquet(from_record))
    with pytest.raises(SystemExit) as e:
        fg.main(["--seeds", "0:1", "--cache", str(record)])
    assert e.value.code == 2 and "round.parquet" in capsys.readouterr().err
