"""scoundrel-play under hostile input: every bad line gets '! ...' and the game goes on;
whatever ends the session writes --record first; a record that cannot be written is
refused at the start; signals to the process group save as Ctrl-C does."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import scoundrel_core as sc
from conftest import fill_disk, free_disk
from test_play_cli import ENV, play, read_until

HOSTILE = [
    ("undo ²", "undo takes a number of steps"),
    ("undo " + "9" * 5000, "no game is so long"),
    ("9" * 5000, "there is no action"),
    ("²", "unknown command '²'"),
    ("٣", "unknown command '٣'"),
    ("1" + "0" * 4400 + "S", "unknown command"),
    ("KX/w", "bad action"),
    ("x" * 50_000, "a line of 50,000 characters"),
    ("\x1b[2J", "unknown command '\\x1b[2J'"),
    ("save", "needs a file name"),
    ("save /nonexistent-dir/g.json", "cannot write record"),
    ("hint me", "takes nothing after it"),
]


@pytest.mark.parametrize(("line", "said"), HOSTILE, ids=[h[1] for h in HOSTILE])
def test_a_bad_line_is_one_bang_line_and_the_game_goes_on(
    tmp_path: Path, line: str, said: str
) -> None:
    rec = tmp_path / "g.json"
    run = play("--seed", "3", "--record", str(rec), script=f"{line}\n1\n")
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    bangs = [x for x in run.stdout.splitlines() if x.startswith("! ")]
    assert len(bangs) == 1 and said in bangs[0], bangs
    assert len(bangs[0]) < 300  # a bounded excerpt, never the whole line
    assert json.loads(rec.read_text())["line"] != ""  # the '1' after it was played


def test_invalid_utf8_is_shown_escaped_and_the_game_goes_on(tmp_path: Path) -> None:
    rec = tmp_path / "g.json"
    run = subprocess.run(
        [sys.executable, "-m", "scoundrel_solver.cli.play", "--seed", "3", "--record", str(rec)],
        input=b"\xff\xfe\n\xc3\n1\n", capture_output=True, env={**ENV, "LC_ALL": "C.UTF-8"},
        timeout=120,
    )
    out = run.stdout.decode("ascii")  # nothing undecodable is written back
    assert run.returncode == 0, run.stderr
    assert "> \\udcff\\udcfe" in out and out.count("! unknown command") == 2
    assert json.loads(rec.read_text())["line"] != ""


def test_control_characters_are_escaped_in_the_echo() -> None:
    run = play("--seed", "3", script="\x1b[31m\x07\n")
    assert "> \\x1b[31m\\x07\n" in run.stdout


def test_an_unwritable_record_is_refused_before_the_game(tmp_path: Path) -> None:
    for target, why in [(tmp_path / "no-dir" / "g.json", "No such file"),
                        (tmp_path, "not a regular file"),
                        (Path("/dev/full"), "not a regular file"),
                        (Path("/dev/null"), "not a regular file")]:
        run = play("--seed", "3", "--record", str(target), script="1\n")
        assert run.returncode == 1  # an output that cannot be written: the system's refusal
        assert run.stdout == ""  # no game was dealt
        assert run.stderr.count("\n") == 1 and why in run.stderr, run.stderr


def test_a_full_disk_keeps_the_earlier_record_whole(small_disk: Path) -> None:
    rec = small_disk / "g.json"
    first = play("--seed", "3", "--record", str(rec), script="1\n")
    assert first.returncode == 0
    before = rec.read_text()
    fill_disk(small_disk)
    run = play("--seed", "3", "--record", str(rec), script="1\n2\n")
    assert run.returncode == 1, run.stdout[-300:]
    assert "the record was NOT written" in run.stdout and "disk full" in run.stdout
    assert rec.read_text() == before  # the old record, not half of the new one
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "g.json"]
    free_disk(small_disk)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT],
                         ids=lambda s: signal.Signals(s).name)
def test_signals_to_the_group_write_the_record(tmp_path: Path, sig: int) -> None:
    rec = tmp_path / "g.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "scoundrel_solver.cli.play", "--seed", "3", "--record", str(rec)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV,
        start_new_session=True,
    )
    try:
        assert proc.stdin is not None
        read_until(proc, b"> ")
        proc.stdin.write(b"1\n")
        proc.stdin.flush()
        read_until(proc, b"> ")
        os.killpg(proc.pid, sig)  # as a terminal sends it: to the whole group
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    how = "interrupted" if sig == signal.SIGINT else f"stopped by {signal.Signals(sig).name}"
    assert proc.returncode == 128 + sig
    assert err.decode() == f"scoundrel-play: {how} after 1 action; record written to {rec}\n"
    assert sc.GameRecord.load(rec).line != ()


def test_a_closed_output_still_writes_the_record(tmp_path: Path) -> None:
    """The reader of stdout goes away (a closed pipe): the session ends, the record is kept
    (as far as the game went: the echo of the next line is what finds the pipe closed)."""
    rec = tmp_path / "g.json"
    proc = subprocess.Popen(
        [sys.executable, "-c", "from scoundrel_solver.cli.entry import play_main as m; "
         "raise SystemExit(m())", "--seed", "3", "--record", str(rec)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV,
    )
    assert proc.stdin is not None and proc.stdout is not None
    read_until(proc, b"> ")
    proc.stdout.close()
    _, err = proc.communicate(input=b"1\nhelp\n" * 50, timeout=60)
    assert b"Traceback" not in err
    assert sc.GameRecord.load(rec).seed == 3  # written, and whole
