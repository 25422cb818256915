"""scoundrel-solve: output formats, batch runs and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import scoundrel_core as sc
from scoundrel_solver.cli.solve import main
from scoundrel_solver.fair import FairAgent
from scoundrel_solver.runs.workers import KernelWorker

pytestmark = pytest.mark.usefixtures("warm_solver")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_output_has_the_documented_keys_and_a_line_that_replays(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "--seed", "2", "--variant", "hard", "--json")
    assert code == 0
    obj = json.loads(out)
    for key in ("seed", "variant", "weapon_rule", "deck", "best_score", "winnable", "proven",
                "line", "nodes", "seconds"):
        assert key in obj
    assert obj["seed"] == 2 and obj["variant"] == "hard" and obj["weapon_rule"] == "strict"
    assert obj["deck"] == [str(c) for c in sc.deal(2)]
    assert obj["proven"] is True
    end = sc.play_line(sc.new_game(seed=2, variant="hard"), obj["line"])
    assert end.score == obj["best_score"]
    assert obj["winnable"] == (obj["best_score"] > 0)


def test_human_output_tells_the_line_room_by_room(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--seed", "0", "--variant", "hard")
    assert code == 0
    assert "Best score: 14 (won), proven optimal" in out
    assert "Room 1: 10C KS 5D 5S" in out
    assert "Game over: won, score 14" in out


def test_weapon_rule_and_deck_options(capsys: pytest.CaptureFixture[str]) -> None:
    deck = " ".join(str(c) for c in sc.deal(5))
    code, out, _ = run(capsys, "--deck", deck, "--variant", "hard", "--weapon-rule", "equal",
                       "--json")
    obj = json.loads(out)
    assert code == 0 and obj["seed"] is None and obj["weapon_rule"] == "equal"
    code, out, _ = run(capsys, "--seed", "5", "--variant", "hard", "--weapon-rule", "equal",
                       "--json")
    assert json.loads(out)["best_score"] == obj["best_score"]


def test_daily_dungeon_uses_the_date_as_seed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--daily", "2026-11-29", "--variant", "hard", "--json")
    assert code == 0 and json.loads(out)["seed"] == 20261129


def test_a_limit_says_not_proven(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--seed", "3", "--max-nodes", "1")
    assert code == 0
    assert "NOT proven" in out
    code, out, _ = run(capsys, "--seed", "3", "--max-nodes", "1", "--json")
    obj = json.loads(out)
    assert obj["proven"] is False and obj["stopped_by"] == "max_nodes"
    assert obj["upper_bound"] >= obj["best_score"]


def test_state_option_solves_a_position(capsys: pytest.CaptureFixture[str]) -> None:
    s = sc.State.from_parts(room=["8D", "JS", "6C", "4H"], dungeon=["2C"], health=12)
    code, out, _ = run(capsys, "--state", s.to_text(), "--json")
    obj = json.loads(out)
    assert code == 0 and obj["proven"]
    assert sc.play_line(s, obj["line"]).score == obj["best_score"]


def test_batch_writes_and_resumes_a_results_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "r.jsonl"
    code, out, _ = run(capsys, "--seeds", "0:3", "--variant", "hard", "--out", str(out_file),
                       "--json")
    assert code == 0 and json.loads(out)["deals"] == 3
    code, out, _ = run(capsys, "--seeds", "0:5", "--variant", "hard", "--out", str(out_file),
                       "--json")
    summary = json.loads(out)
    assert summary["deals"] == 5 and summary["proven"] == 5
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert sorted(r["seed"] for r in rows) == [0, 1, 2, 3, 4]  # 0-2 were not solved again


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--seed", "-1"], "-1"),
        (["--seed", "abc"], "abc"),
        (["--seed", str(2**64)], str(2**64)),
        (["--deck", "KS 7D"], "2 cards"),
        (["--deck", "KS KS " + " ".join(str(c) for c in sc.FULL_DECK[1:43])], "duplicate"),
        (["--deck", "QH " + " ".join(str(c) for c in sc.FULL_DECK[1:])], "QH"),
        (["--seed", "1", "--variant", "medium"], "medium"),
        (["--seed", "1", "--weapon-rule", "soft"], "soft"),
        (["--daily", "2026-13-40"], "2026-13-40"),
        (["--seeds", "9:3"], "9:3"),
        (["--seed", "1", "--max-nodes", "0"], "max-nodes"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and needle in err


HARD_TEXT = ("hard/strict health=20 weapon=- last=- potion=0 resolved=0 fled=0 "
             "room=[2C 3C 4C 5C] dungeon=[9H 6S 7S 8S 9S]")


@pytest.mark.parametrize("repeat", [[], ["--variant", "hard"], ["--variant", "hard/strict"],
                                    ["--weapon-rule", "strict"]])
def test_state_is_solved_in_the_variant_it_names(
    capsys: pytest.CaptureFixture[str], repeat: list[str]
) -> None:
    """Issue 8 item 4: the text's variant is used; flags that repeat it are fine."""
    code, out, err = run(capsys, "--state", HARD_TEXT, "--json", *repeat)
    assert code == 0, err
    obj = json.loads(out)
    assert (obj["variant"], obj["weapon_rule"]) == ("hard", "strict")
    assert obj["best_score"] == sc.play_line(sc.parse_state(HARD_TEXT), obj["line"]).score


def test_advise_uses_the_variant_it_names(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--advise", HARD_TEXT, "--json", "--variant", "hard")
    assert code == 0
    rows = json.loads(out)
    actions = [a["action"] for a in rows]
    assert "flee" not in actions  # hard: no fleeing
    for a in rows:
        assert set(a) == {"action", "value", "win_chance", "search_win_chance",
                          "expected_score", "search_expected_score", "exact", "samples",
                          "choice"}
        assert a["search_win_chance"] == a["win_chance"]  # hard's chance is not calibrated
        assert a["search_expected_score"] == a["expected_score"]  # nor its score
        assert a["samples"] == 0  # hard has no endgame: the search's values
        assert 0.0 <= a["win_chance"] <= 1.0
        assert abs(a["value"] - a["expected_score"] - 100 * a["win_chance"]) < 1e-9
    assert actions == [str(a) for a in sc.legal_actions(sc.parse_state(HARD_TEXT))]
    info = sc.InfoState.from_text(HARD_TEXT)
    assert [a["action"] for a in rows if a["choice"]] == [str(FairAgent().choose(info)[0])]


def test_seeds_apply_max_nodes(capsys: pytest.CaptureFixture[str]) -> None:
    """Item 12: --max-nodes applies to every deal of a batch."""
    code, out, _ = run(capsys, "--seeds", "0:2", "--max-nodes", "1", "--json")
    assert code == 0 and json.loads(out)["proven"] == 0


def test_fair_does_not_play_when_the_table_cannot_be_made(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 7: the table size is checked before the game is played, naming --table-mib."""
    import scoundrel_solver.cli.fair as fair

    def play_fair(*args: object) -> None:
        raise AssertionError("played before checking --table-mib")

    monkeypatch.setattr(fair, "play_fair", play_fair)
    code, out, err = run(capsys, "--fair", "--seed", "1", "--table-mib", str(2**60))
    assert code == 2 and out == "" and err.count("\n") == 1 and "--table-mib" in err


@pytest.mark.parametrize(("argv", "seed"), [(["--seed", "7"], 7),
                                            (["--daily", "2026-11-29"], 20261129)])
def test_a_seed_is_dealt_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str],
    seed: int,
) -> None:
    """Issue 21: the command deals the seed, the solver takes the position, and the
    result still names the seed (the deal used to be made again inside ``solve``)."""
    import scoundrel_core.rules as rules

    expected = [str(c) for c in sc.deal(seed)]
    dealt: list[int] = []
    real_deal = rules.deal

    def counting_deal(s: int) -> list[sc.Card]:
        dealt.append(s)
        return real_deal(s)

    monkeypatch.setattr(rules, "deal", counting_deal)
    code, out, err = run(capsys, *argv, "--variant", "hard", "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert dealt == [seed]
    assert obj["seed"] == seed and obj["deck"] == expected and obj["proven"] is True
    assert sc.play_line(sc.new_game(seed=seed, variant="hard"), obj["line"]).score == (
        obj["best_score"]
    )


def test_table_size_is_checked_by_arithmetic_and_the_table_made_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21: --table-mib is checked against the machine's memory without making a
    table (the error names the option, its value and the limit), and a good size
    makes one table, the solver's."""
    import sys

    import scoundrel_solver.exact.table as table

    solver = sys.modules["scoundrel_solver.exact.solve"]  # the package's "solve" is the function
    made: list[int] = []
    real_init = table.TranspositionTable.__init__

    def counting_init(self: table.TranspositionTable, mib: int = table.DEFAULT_TABLE_MIB) -> None:
        made.append(mib)
        real_init(self, mib)

    monkeypatch.setattr(table.TranspositionTable, "__init__", counting_init)
    monkeypatch.setattr(table, "machine_mib", lambda: 512)
    monkeypatch.setattr(solver, "_tables", {})  # no table left over from other tests
    # The solve in this process, where the count is seen (not in a forked worker).
    monkeypatch.setattr(KernelWorker, "available", staticmethod(lambda: False))
    code, out, err = run(capsys, "--seed", "1", "--table-mib", "1024")
    assert code == 2 and out == "" and made == []
    assert err == ("scoundrel-solve: error: --table-mib 1024 MiB is more than this "
                   "machine's memory (512 MiB)\n")
    code, out, err = run(capsys, "--seed", "1", "--table-mib", "3", "--json")
    assert code == 0, err
    assert made == [3] and json.loads(out)["proven"] is True


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--state", HARD_TEXT, "--variant", "classic"], "--variant classic"),
        (["--state", HARD_TEXT, "--variant", "hard/equal"], "--variant hard/equal"),
        (["--state", HARD_TEXT, "--weapon-rule", "equal"], "--weapon-rule equal"),
        (["--advise", HARD_TEXT, "--variant", "easy"], "--variant easy"),
        (["--fair", "--advise", HARD_TEXT, "--state", HARD_TEXT], "--state"),
        (["--advise", HARD_TEXT, "--seed", "3"], "--seed"),
        (["--advise", HARD_TEXT, "--max-nodes", "5"], "--max-nodes"),
        (["--advise", HARD_TEXT, "--table-mib", "5"], "--table-mib"),
        (["--seeds", "0:2", "--fair"], "--fair"),
        (["--seeds", "0:2", "--advise", HARD_TEXT], "--advise"),
        (["--seed", "1", "--out", "x.jsonl"], "--out"),
        (["--seed", "1", "--quiet"], "--quiet"),
        (["--seed", "1", "--table-mib", str(10**30)], "--table-mib"),
        (["--seed", "1", "--table-mib", "0"], "--table-mib"),
        (["--seed", "1", "--max-nodes", "x"], "--max-nodes"),
        (["--seed", "1", "--max-seconds", "-1"], "--max-seconds"),
        (["--seed", "1", "--max-seconds", "nan"], "--max-seconds"),
        (["--seed", "1", "--deck", "KS"], "--deck"),
        (["--seed", "1", "--bogus"], "--bogus"),
        (["--seeds", f"0:{2**64 + 1}"], str(2**64 + 1)),
    ],
)
def test_options_that_do_not_apply_or_fit_exit_2_naming_them(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    """Items 4 and 12: one line on stderr, naming the option; nothing on stdout."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("scoundrel-solve: error:") and needle in err


@pytest.mark.parametrize("argv", [["--seed", "1"], ["--fair", "--seed", "1"]])
def test_ctrl_c_during_one_deal_exits_130_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    """Item 13 for one deal (a batch and scoundrel-eval: test_cli_signals.py)."""
    import sys

    import scoundrel_solver.cli.fair as fair

    solver = sys.modules["scoundrel_solver.exact.solve"]  # the package's "solve" is the function

    def pressed(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(solver, "solve", pressed)
    monkeypatch.setattr(fair, "play_fair", pressed)
    code, out, err = run(capsys, *argv)
    assert code == 130 and out == ""
    assert err == "scoundrel-solve: interrupted; nothing saved\n"
