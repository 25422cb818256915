"""``scoundrel-play``: play a deal in the terminal, with hints and a review afterwards.

    scoundrel-play [--seed N | --daily [DATE] | --deck TEXT] [--variant V]
                   [--weapon-rule R] [--record FILE]
    scoundrel-play --review FILE

Reads one command per line from standard input (a terminal or a pipe). Through
a pipe every command is echoed after its prompt, so a transcript reads like a
session, and no terminal control codes are written; colour for the card kinds
only when standard output is a terminal and ``NO_COLOR`` is not set.

Exit codes: 0 the game ended or the player quit (end of input quits too);
1 a record that cannot be written (refused at the start, or not written at the
end); 2 bad arguments or a bad record, a record of more decisions than a review
values included (one line on stderr); 130 Ctrl-C (one line on stderr saying
whether the record was written).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

import scoundrel_core as sc
from scoundrel_core.files import check_output

from ..play.commands import Command, UnknownCommand, parse_command
from ..play.render import (
    HELP,
    Palette,
    action_effect_text,
    plural,
    render_actions,
    render_game_over,
    render_hint,
    render_position,
    render_review,
)
from ..play.session import Session
from ..runs.workers import KernelWorker, WorkerDied, in_worker
from .options import (
    Interrupted,
    Parser,
    UsageError,
    add_deal_options,
    add_variant_options,
    add_version_option,
    deal_from,
    finished,
    given,
    refuse,
    run_command,
)

if TYPE_CHECKING:  # the fair agent loads numba: only on the first hint
    from scoundrel_core import InfoState

    from ..coach.hints import Hints
    from ..fair.agent import ActionValue

__all__ = ["main"]

PROG = "scoundrel-play"
REVIEW_SOLVE_SECONDS = 60.0
"""Cap on the exact solver in a review (classic deals take well under a second)."""


def _parser() -> Parser:
    p = Parser(
        prog=PROG,
        description="Play a deal of Scoundrel in the terminal. 'hint' asks the fair agent "
        "(it sees only what you see); after the game a review compares your play with the "
        "fair agent and with the exact best score of the deal.",
    )
    add_version_option(p)
    deal = add_deal_options(p, state=False, daily_today=True, no_deal="a random seed")
    deal.add_argument("--review", metavar="FILE",
                      help="print the review of a saved game record and exit")
    add_variant_options(p)
    p.add_argument("--record", metavar="FILE",
                   help="write the game record to FILE when the game ends or you quit")
    return p


def _new_game(args: argparse.Namespace) -> tuple[Session, str]:
    """The session to play and a few words naming the deal (a random seed when none is given)."""
    chosen = any(given(args, dest) for dest in ("seed", "deck", "daily"))
    seed = 0 if chosen else random.randrange(1_000_000)
    deal = deal_from(args, default_seed=seed)
    where = deal.where if chosen else f"seed {seed} (random; --seed {seed} deals it again)"
    return Session(deal.start, deal.seed), f"{where}, {deal.start.variant}"


def _colour_wanted(out: TextIO) -> bool:
    """Colour only on a terminal and only if the user did not ask for none (no-color.org)."""
    return out.isatty() and not os.environ.get("NO_COLOR")


Reader = Callable[[str], "str | None"]

MAX_LINE = 10_000
"""The longest command line read; a longer one is skipped whole with one '!' line."""


def visible(text: str) -> str:
    r"""Text with control characters (and undecodable bytes, read as lone surrogates) shown
    as escapes, so an echo or a quoted name can never drive the terminal; newlines kept.

    >>> visible("7D\x1b[2J \udcff ok\n")
    '7D\\x1b[2J \\udcff ok\n'
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == "\n" else repr(ch)[1:-1] for ch in text)


def _readable(stream: TextIO) -> None:
    """Bytes that are not UTF-8 must not end the game: read them as escapes (shown as such),
    and never fail to print a character the terminal's encoding lacks."""
    if isinstance(stream, io.TextIOWrapper):  # not a test's StringIO
        with contextlib.suppress(ValueError, OSError):
            stream.reconfigure(
                errors="surrogateescape" if stream is sys.stdin else "backslashreplace"
            )


def _reader(stdin: TextIO, stdout: TextIO) -> Reader:
    """Read one line after a prompt; None at end of input. A line longer than
    :data:`MAX_LINE` is read to its end and refused (UnknownCommand)."""
    if stdin.isatty() and stdout.isatty():
        with contextlib.suppress(ImportError):  # line editing and history for input()
            import readline  # noqa: F401

        def read_terminal(prompt: str) -> str | None:
            try:
                line = input(prompt)
            except EOFError:
                print()
                return None
            if len(line) > MAX_LINE:
                raise UnknownCommand(f"a line of {len(line):,} characters: no command is so long")
            return line

        return read_terminal

    def read_pipe(prompt: str) -> str | None:
        stdout.write(prompt)
        stdout.flush()  # a program driving us through pipes waits for the prompt
        line = stdin.readline(MAX_LINE + 1)
        if not line:
            stdout.write("(end of input)\n")
            stdout.flush()
            return None
        if len(line) > MAX_LINE and not line.endswith("\n"):
            skipped = len(line)
            while line and not line.endswith("\n"):  # drop the rest without holding it
                line = stdin.readline(MAX_LINE + 1)
                skipped += len(line.rstrip("\n"))
            stdout.write(f"(a line of {skipped:,} characters)\n")
            stdout.flush()
            raise UnknownCommand(f"a line of {skipped:,} characters: no command is so long")
        # The echo keeps the transcript readable, with control characters escaped.
        stdout.write(visible(line.rstrip("\n")) + "\n")
        stdout.flush()
        return line

    return read_pipe


class _Game:
    """The command loop of one game, writing to ``out``."""

    def __init__(self, game: Session, record: str | None, pal: Palette, out: TextIO) -> None:
        self.game = game
        self.record_path = record
        self.pal = pal
        self.out = out
        self._kernels: KernelWorker | None = None
        self.warming: threading.Thread | None = None
        """The thread loading the hint kernels while the player reads the first room."""
        self.recorded: str | None = None
        """What :meth:`write_record` said, once it ran (the record is written once)."""

    def say(self, *lines: str) -> None:
        for line in lines:
            # Without colour nothing we write is a control code: escape any that came in
            # (a file name, a quoted line), so a transcript shows what was typed.
            print(line if self.pal.colour else visible(line), file=self.out)

    def show(self) -> None:
        self.say(*render_position(self.game, self.pal), "Actions:",
                 *render_actions(self.game, self.pal))

    def write_record(self) -> str:
        """Write the record if one was asked for (once: later calls repeat the words);
        the words saying what happened, a failure included."""
        if self.recorded is not None:
            return self.recorded
        if self.record_path is None:
            self.recorded = "no record written (no --record)"
            return self.recorded
        try:
            self.game.record().save(self.record_path)
            self.recorded = f"record written to {self.record_path}"
        except sc.RecordError as err:
            self.recorded = f"the record was NOT written: {err}"
        return self.recorded

    def hint(self) -> None:
        if self._kernels is None:
            if self.warming is not None:
                # Forked once the kernels are loaded: never while that thread holds a lock
                # the worker would then wait on forever.
                self.warming.join()
            self._kernels = KernelWorker(_hint_values, ahead=1)
        # The search runs in the session's worker (its agent's memo kept there across
        # hints), so a Ctrl-C or SIGTERM during a hint stops the game at once.
        try:
            values = self._kernels.call(self.game.info)
        except WorkerDied as err:  # the game goes on; the next hint starts a new worker
            self.say(f"! no hint: {err}; ask again")
            return
        self.say(*render_hint(self.game, values, self.pal))

    def close(self) -> None:
        """End the session's hint worker, if a hint started one."""
        if self._kernels is not None:
            self._kernels.close()

    def command(self, cmd: Command) -> None:
        """Carry out one command other than quit (bad input raises a ScoundrelError)."""
        g = self.game
        if cmd.name == "help":
            self.say(HELP)
        elif cmd.name == "hint":
            self.hint()
        elif cmd.name == "undo":
            n = g.undo(int(cmd.arg))
            self.say(f"Took back {plural(n, 'action')}.")
            self.show()
        elif cmd.name == "save":
            g.record().save(cmd.arg)
            self.say(f"Saved the game so far ({plural(g.steps, 'action')}) to {cmd.arg}.")
        elif cmd.name == "action":
            a = g.read_action(cmd.arg)
            effect = action_effect_text(g, a)
            self.say(self.pal.paint(f"{effect[0].upper()}{effect[1:]}."))
            g.play(a)
            if not g.is_over:
                self.show()

    def run(self, read: Reader) -> int:
        """Play until the game ends (then review it) or the player quits."""
        self.show()
        line: str | None = ""
        while not self.game.is_over:
            try:
                line = read("> ")
                cmd = Command("quit") if line is None else parse_command(line)
                if cmd.name == "quit":
                    break
                self.command(cmd)
            except sc.ScoundrelError as err:  # any bad line: say so, and the game goes on
                self.say(f"! {err}")
        if not self.game.is_over:
            why = "End of input" if line is None else "Quit"
            self.say(f"{why}: stopped after {plural(self.game.steps, 'action')}; "
                     f"{self.write_record()}.")
            return 0
        self.say(*render_game_over(self.game, self.pal), f"({self.write_record()})")
        self.say("Reviewing the game (fair agent and exact solver)...")
        self.out.flush()
        from ..coach.review import ReviewTooLong

        try:
            if self.warming is not None:
                self.warming.join()
            self.say(*in_worker(_review_lines, (self.game.record(), self.pal)))
        except (ReviewTooLong, WorkerDied) as err:  # the game was fine: it ended, recorded
            self.say(f"! no review: {err}")
        return 0


_HINTS: list[Hints] = []  # the worker's one hint agent (made on its first hint)


def _hint_values(info: InfoState) -> list[ActionValue]:
    """A hint, in the session's worker: every legal action's value to its hint agent."""
    from ..coach.hints import Hints

    if not _HINTS:
        _HINTS.append(Hints())
    return _HINTS[0].agent.evaluate(info)


def _review_lines(task: tuple[sc.GameRecord, Palette]) -> list[str]:
    """The review of a record as lines to print (run in a worker: its solves take up to a
    minute each, and a stop signal must not wait for them)."""
    from ..coach.game import Game
    from ..coach.review import check_reviewable, review

    record, pal = task

    # Before the game is rebuilt step by step: endless flees are refused here, at once.
    check_reviewable(record.start(), record.line)
    return render_review(review(Game.from_record(record), solve_seconds=REVIEW_SOLVE_SECONDS),
                         pal)


def _warm_hints(game: Session) -> None:
    from ..coach.hints import warm_up

    warm_up(game.start_info)


def _review(path: str, pal: Palette, out: TextIO) -> int:
    from ..coach.review import ReviewTooLong

    record = sc.GameRecord.load(path)
    try:
        lines = in_worker(_review_lines, (record, pal))
    except ReviewTooLong as err:
        raise ReviewTooLong(f"record {path!r}: {err}") from None
    deal = f"seed {record.seed}" if record.seed is not None else "given deck"
    print(f"Game record {path}: {plural(len(record.line), 'action')}, "
          f"{record.variant}/{record.weapon_rule}, {deal}", file=out)
    print("\n".join(lines), file=out)
    return 0


def _main(argv: Sequence[str] | None) -> int:
    out = sys.stdout
    pal = Palette(colour=_colour_wanted(out))
    args = _parser().parse_args(argv)
    if args.review is not None:
        refuse(args, ["record", "variant", "weapon_rule"],
               "to --review: it reads everything from the record; give no other option")
        return _review(args.review, pal, out)
    game, where = _new_game(args)
    if args.record is not None:  # refused now, not after the game
        if not args.record.strip():
            raise UsageError(f"--record {args.record!r} is not a file name")
        # An output that cannot be written is the system's refusal (OSError: exit 1).
        check_output(args.record, "record")
    _readable(sys.stdin)
    _readable(out)
    loop = _Game(game, args.record, pal, out)
    loop.say(pal.bold(f"Scoundrel: {where}.") + " Type help for the commands.")
    if sys.stdin.isatty() and out.isatty():
        # A person reads the room first: load the hint kernels meanwhile (daemon: an early
        # quit does not wait for it). Scripts through a pipe skip it and pay only if they ask.
        loop.warming = threading.Thread(target=_warm_hints, args=(game,), daemon=True)
        loop.warming.start()
    try:
        code = loop.run(_reader(sys.stdin, out))
        return 1 if loop.recorded and "NOT written" in loop.recorded else code
    except KeyboardInterrupt:  # Ctrl-C, and SIGTERM/SIGHUP through run_command
        saved = loop.write_record()
        with contextlib.suppress(OSError, ValueError):  # a closed terminal takes no newline
            if out.isatty():
                print(file=out)  # leave the line with the prompt and ^C
        raise Interrupted(saved, after=plural(game.steps, "action")) from None
    finally:
        # Whatever else ends the session (a closed output, an error of ours) writes the
        # record first; a game that ended normally has written it already.
        loop.write_record()
        loop.close()


def main(argv: Sequence[str] | None = None) -> int:
    """``scoundrel-play``: returns the exit code (0, 2 bad input, 130 Ctrl-C)."""
    return run_command(PROG, lambda: _main(argv))


if __name__ == "__main__":
    raise SystemExit(finished(main()))
