"""scripts/fair_regret.py: the regret table against the exact fair optimum."""

from __future__ import annotations

import csv
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from scoundrel_solver.provenance import read_provenance

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "fair_regret.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fair_regret", SCRIPT)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclass looks its module up there
    spec.loader.exec_module(mod)
    return mod


def _read(path: Path) -> list[dict[str, str]]:
    with path.open() as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def test_table_rows_are_the_deck_means_and_bounded_by_the_optimum(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    weights = tmp_path / "w.json"
    weights.write_text(json.dumps({}))
    table, decks = tmp_path / "t.csv", tmp_path / "d.csv"
    argv = [
        "--sizes", "5", "--decks", "2", "--seed", "3", "--agent", "greedy",
        "--agent", "fair:max_depth=0", "--agent", "scoundrel_solver.fair:GreedyAgent",
        "--weights", str(weights), "--csv", str(table), "--decks-csv", str(decks), "--quiet",
    ]
    assert _script().main(argv) == 0
    per_deck, rows = _read(decks), _read(table)
    assert len(per_deck) == 6 and len(rows) == 3
    assert read_provenance(table)["version"] and read_provenance(decks)["commit"]
    assert "| 5 | 2 | `greedy` |" in capsys.readouterr().out
    for row in rows:
        mine = [d for d in per_deck if d["agent"] == row["agent"]]
        regret = sum(float(d["optimal_score"]) - float(d["agent_score"]) for d in mine) / 2
        assert float(row["regret"]) == pytest.approx(regret)
        assert float(row["regret"]) >= -1e-9 and float(row["win_regret"]) >= -1e-9
    # the same agent by name and by import path scores the same
    by_name = [d["agent_score"] for d in per_deck if d["agent"] == "greedy"]
    by_path = [d["agent_score"] for d in per_deck if d["agent"].endswith(":GreedyAgent")]
    assert by_name == by_path


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--agent", "bogus"], "bogus"),
        (["--agent", "fair:depth=1"], "depth"),
        (["--agent", "os:no_such_factory"], "no_such_factory"),
        (["--sizes", "3"], "--sizes"),
        (["--sizes", "5,6", "--decks", "1,2,3"], "--decks"),
        (["--variant", "easy"], "easy"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], named: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t.csv"
    assert _script().main([*argv, "--csv", str(out), "--decks-csv", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert named in err and "\n" not in err and not out.exists()


def test_resume_keeps_the_decks_done_and_plays_the_rest(tmp_path: Path) -> None:
    table, decks = tmp_path / "t.csv", tmp_path / "d.csv"
    base = ["--sizes", "5", "--seed", "4", "--agent", "greedy", "--quiet",
            "--csv", str(table), "--decks-csv", str(decks)]
    fr = _script()
    assert fr.main([*base, "--decks", "1"]) == 0
    first = _read(decks)
    assert fr.main([*base, "--decks", "2", "--resume"]) == 0
    both = _read(decks)
    assert len(both) == 2 and both[0] == first[0]
    # a resumed run with nothing missing replays nothing (its timings are kept)
    assert fr.main([*base, "--decks", "2", "--resume"]) == 0
    assert _read(decks) == both and _read(table)[0]["decks"] == "2"


def test_ctrl_c_keeps_the_decks_done_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fr = _script()
    real = fr.fair_optimum
    calls = []

    def stop_at_the_second_deck(*args: object, **kw: object) -> object:
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kw)

    monkeypatch.setattr(fr, "fair_optimum", stop_at_the_second_deck)
    decks = tmp_path / "d.csv"
    argv = ["--sizes", "5", "--decks", "3", "--agent", "greedy", "--quiet",
            "--csv", str(tmp_path / "t.csv"), "--decks-csv", str(decks)]
    assert fr.main(argv) == 130
    err = capsys.readouterr().err.strip()
    assert "1 decks saved" in err and str(decks) in err and "\n" not in err
    assert len(_read(decks)) == 1 and not (tmp_path / "t.csv").exists()
