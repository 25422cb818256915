"""scoundrel-play end to end: scripted sessions through a pipe, and a real terminal (tmux)."""

from __future__ import annotations

import json
import os
import select
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import scoundrel_core as sc
from scoundrel_solver.cli.play import _colour_wanted, main
from scoundrel_solver.fair.api import play_fair
from scoundrel_solver.fair.config import agent_config
from scoundrel_solver.play.session import Session

SRC = str(Path(__file__).resolve().parents[1] / "src")
ENV = {**os.environ, "PYTHONPATH": SRC}
ENV.pop("NO_COLOR", None)


def play(*argv: str, script: str = "", env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess[str]:
    """Run the command with ``script`` on its standard input (a pipe) and its output piped."""
    run = subprocess.run(
        [sys.executable, "-m", "scoundrel_solver.cli.play", *argv],
        input=script, capture_output=True, text=True, env=env or ENV, timeout=300,
    )
    # Through a pipe there is never a terminal control code, colour or other.
    assert "\x1b" not in run.stdout and "\x1b" not in run.stderr
    return run


def survivor(variant: str, steps: int) -> tuple[int, list[sc.Action]]:
    """A seed and the first ``steps`` first-listed actions, the game still on after them."""
    for seed in range(100):
        game = Session(sc.new_game(seed=seed, variant=variant), seed)
        while game.steps < steps and not game.is_over:
            game.play(game.legal()[0])
        if not game.is_over:
            return seed, list(game.actions)
    raise AssertionError("no seed survives")


def test_a_whole_deal_played_by_numbers_ends_with_the_score_and_a_review(tmp_path: Path) -> None:
    # The player types the number of the fair agent's choice at every step (seed 18 of
    # hard is a deal it wins): the review must find no costly decision.
    seed = 18
    start = sc.new_game(seed=seed, variant="hard")
    fair = play_fair(start)
    game = Session(start, seed)
    numbers = []
    for text in fair.actions:
        a = sc.parse_action_text(text)
        numbers.append(game.legal().index(a) + 1)
        game.play(a)
    assert game.state.won and len(numbers) == sc.DECK_SIZE  # a won game resolves every card
    rec = tmp_path / "game.json"
    run = play("--seed", str(seed), "--variant", "hard", "--record", str(rec),
               script="".join(f"{n}\n" for n in numbers) + "quit\n")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert out.startswith("Scoundrel: seed 18, hard/strict.")
    assert f"Game over: you won with score {fair.score} after {sc.DECK_SIZE} actions." in out
    assert "> quit" not in out  # the game ended: nothing more was read
    assert f"Your score:          {fair.score} (won)" in out
    assert f"Fair agent's score:  {fair.score} (won) on the same deal" in out
    assert "Best possible score: " in out and ", proven, by the exact solver" in out
    assert "None cost 2 points or more of the fair agent's chance of winning" in out
    saved = json.loads(rec.read_text())
    assert saved["line"] == fair.line and saved["score"] == fair.score and saved["seed"] == seed


def test_mistakes_hint_undo_save_and_review(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed, acts = survivor("classic", 3)
    start = sc.new_game(seed=seed)
    absent = next(c for c in sc.FULL_DECK if c.is_weapon and c not in start.room)
    save, rec = tmp_path / "saved.json", tmp_path / "quit.json"
    script = "\n".join([
        "dance", "99", str(absent), "KS/x", "hint",
        *map(str, acts), "undo 2", "undo 9", f"save {save}", "quit", "1",
    ]) + "\n"
    run = play("--seed", str(seed), "--record", str(rec), script=script)
    assert run.returncode == 0 and run.stderr == ""
    out = run.stdout
    assert "> dance\n! unknown command 'dance' (type help for the list)\n> 99\n" in out
    assert f"! there is no action '99': choose 1..{len(sc.legal_actions(start))}\n" in out
    assert f"! '{absent}' is not legal here: {absent} is not in the room\n" in out
    assert "! bad action 'KS/x'" in out
    hint = out.split("> hint\n")[1].split("\n> ")[0].splitlines()
    assert hint[0] == (
        "Fair agent (sees only what you see), best first"
        f" (it maximises expected score + {agent_config(start.variant).win_bonus:g} x win chance"
        + (", as its search estimates them; shown: calibrated on its own games"
           if agent_config(start.variant).shown else "") + "):"
    )
    assert hint[1].split() == ["action", "win", "chance", "expected", "score"]
    assert len(hint) == 2 + len(sc.legal_actions(start))
    assert "> undo 2\nTook back 2 actions.\nRoom 1 (step 2)" in out
    assert "! cannot undo 9 steps: only 1 played so far" in out
    assert f"Saved the game so far (1 action) to {save}." in out
    assert f"Quit: stopped after 1 action; record written to {rec}." in out
    assert "> 1\n" not in out.split("> quit\n")[1]  # nothing read after quit
    assert json.loads(save.read_text())["line"] == str(acts[0])
    assert json.loads(rec.read_text())["line"] == str(acts[0])

    # The review in this process (its kernels are loaded already: a faster test).
    assert main(["--review", str(save)]) == 0
    review = capsys.readouterr().out
    assert f"Game record {save}: 1 action, classic/strict, seed {seed}" in review
    assert "Your score:          game not finished" in review
    assert f"Fair agent's score:  {play_fair(start).score} " in review
    assert "Best possible score: " in review and "\x1b" not in review


def test_end_of_input_quits_and_writes_the_record(tmp_path: Path) -> None:
    seed, acts = survivor("hard", 2)
    rec = tmp_path / "eof.json"
    run = play("--seed", str(seed), "--variant", "hard", "--record", str(rec),
               script="1\n1")  # no newline after the last command either
    assert run.returncode == 0
    assert run.stdout.endswith("(end of input)\nEnd of input: stopped after 2 actions; "
                               f"record written to {rec}.\n")
    assert json.loads(rec.read_text())["line"] == " ".join(map(str, acts))


def test_no_colour_through_a_pipe_even_without_no_color() -> None:
    # play() checks every output for escape codes; here NO_COLOR is unset on purpose.
    run = play("--daily", "2026-11-29", script="hint\nhelp\n")
    assert run.returncode == 0
    assert "daily dungeon 2026-11-29 (seed 20261129)" in run.stdout
    assert "the exact solver, which does see it, is used" in run.stdout


class FakeTerminal:
    def isatty(self) -> bool:
        return True


def test_colour_wants_a_terminal_and_no_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert _colour_wanted(FakeTerminal())  # type: ignore[arg-type]
    assert not _colour_wanted(sys.stdout)  # captured by pytest: not a terminal
    monkeypatch.setenv("NO_COLOR", "1")
    assert not _colour_wanted(FakeTerminal())  # type: ignore[arg-type]


def test_daily_without_a_date_is_today(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    import datetime as dt
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["--daily"]) == 0
    today = dt.date.today()
    assert f"daily dungeon {today.isoformat()} (seed {sc.daily_seed(today)})" \
        in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["--seed", "x"], "seed 'x' is not a number in plain decimal digits 0-9"),
        (["--seed", "-1"], "out of range"),
        (["--bogus"], "unrecognized arguments: --bogus"),
        (["--variant", "nope"], "unknown variant 'nope'"),
        (["--weapon-rule", "blunt"], "unknown weapon rule 'blunt'"),
        (["--seed", "1", "--daily"], "not allowed with argument"),
        (["--daily", "2026-13-01"], "date 2026-13-01 does not exist"),
        (["--daily", "2026-1-01"], "bad date '2026-1-01': expected YYYY-MM-DD"),
        (["--deck", "KS 7D"], "deck has 2 cards"),
        (["--review", "/nonexistent/game.json"], "cannot read record"),
        (["--review", "x.json", "--record", "y.json"], "give no other option"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    argv: list[str], why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and why in err
    assert err.startswith("scoundrel-play: error: ")


def test_bad_record_to_review_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "scoundrel-record/1", "seed": 1, "line": "QQ"}))
    run = play("--review", str(bad))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and "'QQ'" in run.stderr


def read_until(proc: subprocess.Popen[bytes], ending: bytes, timeout: float = 120) -> bytes:
    """What the process wrote to stdout until it ends with ``ending`` (a prompt)."""
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    got = b""
    deadline = time.monotonic() + timeout
    while not got.endswith(ending):
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"no {ending!r} within {timeout} s; got {got[-300:]!r}"
        chunk = os.read(fd, 65536)
        assert chunk, f"output closed before {ending!r}; got {got[-300:]!r}"
        got += chunk
    return got


def test_ctrl_c_quits_with_130_one_line_and_the_record(tmp_path: Path) -> None:
    rec = tmp_path / "int.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "scoundrel_solver.cli.play", "--seed", "3", "--record", str(rec)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV,
    )
    try:
        read_until(proc, b"> ")
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert err.decode() == (f"scoundrel-play: interrupted after 0 actions; "
                            f"record written to {rec}\n")
    assert json.loads(rec.read_text())["line"] == ""


# -- a real terminal, driven through tmux -------------------------------------------------------


class Tmux:
    """One tmux server of our own (its own socket), so no other session is touched."""

    def __init__(self) -> None:
        self.server = ["tmux", "-L", f"scoundrel-play-test-{os.getpid()}"]

    def __call__(self, *args: str) -> str:
        return subprocess.run([*self.server, *args], capture_output=True,
                              text=True, check=True, timeout=60).stdout

    def start(self, name: str, command: str) -> None:
        # The shell prints the exit code and waits, so the pane stays readable at the end.
        shell = f"{command}; echo EXIT=$?; sleep 120"
        # Wide enough that a long temporary path in a message never wraps.
        self("new-session", "-d", "-s", name, "-x", "250", "-y", "40", shell)

    def screen(self, name: str, escapes: bool = False) -> str:
        return self("capture-pane", "-p", *(["-e"] if escapes else []), "-t", name)

    def wait(self, name: str, ok: Callable[[str], bool], timeout: float = 120) -> str:
        deadline = time.monotonic() + timeout
        while True:
            text = self.screen(name)
            if ok(text):
                return text
            assert time.monotonic() < deadline, f"timed out; the screen shows:\n{text}"
            time.sleep(0.2)


def prompt_ready(text: str) -> bool:
    return text.rstrip().endswith(">")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_a_real_terminal_session_through_tmux(tmp_path: Path) -> None:
    tmux = Tmux()
    rec, rec_plain = tmp_path / "tty.json", tmp_path / "plain.json"

    def command(env: list[str], record: Path) -> str:
        return shlex.join(["env", *env, f"PYTHONPATH={SRC}", sys.executable, "-m",
                           "scoundrel_solver.cli.play", "--seed", "42", "--record", str(record)])

    try:
        tmux.start("colour", command(["-u", "NO_COLOR"], rec))
        tmux.start("plain", command(["NO_COLOR=1"], rec_plain))
        first = tmux.wait("colour", prompt_ready)
        assert "Scoundrel: seed 42, classic/strict." in first and "Actions:" in first
        coloured = tmux.screen("colour", escapes=True)
        assert "\x1b[" in coloured and "KS" in coloured  # the monsters of seed 42 in colour
        tmux("send-keys", "-t", "colour", "hint", "Enter")
        shown = tmux.wait("colour", lambda t: "expected score" in t and prompt_ready(t))
        assert "win chance" in shown and "exact" in shown.split("expected score")[-1]
        tmux("send-keys", "-t", "colour", "quit", "Enter")
        end = tmux.wait("colour", lambda t: "EXIT=" in t)
        assert f"Quit: stopped after 0 actions; record written to {rec}." in end
        assert "EXIT=0" in end

        tmux.wait("plain", prompt_ready)
        assert "\x1b[" not in tmux.screen("plain", escapes=True)  # NO_COLOR in a terminal
        tmux("send-keys", "-t", "plain", "C-c")
        end = tmux.wait("plain", lambda t: "EXIT=" in t)
        assert "EXIT=130" in end and "interrupted after 0 actions; record written" in end
        assert json.loads(rec_plain.read_text())["line"] == ""
    finally:
        subprocess.run([*tmux.server, "kill-server"], capture_output=True)


def test_console_script_is_wired_and_quiet_on_a_closed_pipe() -> None:
    import tomllib

    pyproject = tomllib.loads((Path(SRC).parent / "pyproject.toml").read_text())
    assert pyproject["project"]["scripts"]["scoundrel-play"] == \
        "scoundrel_solver.cli.entry:play_main"
    # `scoundrel-play ... | head -1`: the reader leaves early, no traceback.
    code = ("import sys; from scoundrel_solver.cli.entry import play_main; "
            "sys.argv = ['scoundrel-play', '--seed', '1']; raise SystemExit(play_main())")
    with subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV) as proc:
        assert proc.stdout is not None and proc.stdin is not None
        assert proc.stdout.readline().startswith(b"Scoundrel: seed 1")
        proc.stdout.close()
        _, err = proc.communicate(input=b"help\n" * 200 + b"quit\n", timeout=120)
    assert proc.returncode == 0 and err == b""
