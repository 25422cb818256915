"""``scoundrel-play``: play a deal in the terminal, with hints and a review afterwards.

    scoundrel-play [--seed N | --daily [DATE] | --deck TEXT] [--variant V]
                   [--weapon-rule R] [--record FILE]
    scoundrel-play --review FILE

Reads one command per line from standard input (a terminal or a pipe). Through
a pipe every command is echoed after its prompt, so a transcript reads like a
session, and no terminal control codes are written; colour for the card kinds
only when standard output is a terminal and ``NO_COLOR`` is not set.

Exit codes: 0 the game ended or the player quit (end of input quits too);
2 bad arguments, a bad record or a record that cannot be written (one line on
stderr); 130 Ctrl-C (one line on stderr saying whether the record was written).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

import scoundrel_core as sc

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
from .options import (
    Interrupted,
    Parser,
    add_deal_options,
    add_variant_options,
    add_version_option,
    deal_from,
    given,
    refuse,
    run_command,
)

if TYPE_CHECKING:  # the fair agent loads numba: only on the first hint
    from ..play.hints import Hints

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


def _reader(stdin: TextIO, stdout: TextIO) -> Reader:
    """Read one line after a prompt; None at end of input."""
    if stdin.isatty() and stdout.isatty():
        with contextlib.suppress(ImportError):  # line editing and history for input()
            import readline  # noqa: F401

        def read_terminal(prompt: str) -> str | None:
            try:
                return input(prompt)
            except EOFError:
                print()
                return None

        return read_terminal

    def read_pipe(prompt: str) -> str | None:
        stdout.write(prompt)
        stdout.flush()  # a program driving us through pipes waits for the prompt
        line = stdin.readline()
        if not line:
            stdout.write("(end of input)\n")
            stdout.flush()
            return None
        stdout.write(line if line.endswith("\n") else line + "\n")  # the echo keeps it readable
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
        self._hints: Hints | None = None

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)

    def show(self) -> None:
        self.say(*render_position(self.game, self.pal), "Actions:",
                 *render_actions(self.game, self.pal))

    def write_record(self) -> str:
        """Write the record if one was asked for; the words saying what happened."""
        if self.record_path is None:
            return "no record written (no --record)"
        self.game.record().save(self.record_path)
        return f"record written to {self.record_path}"

    def hint(self) -> None:
        from ..play.hints import Hints

        if self._hints is None:
            self._hints = Hints()
        self.say(*render_hint(self.game, self._hints.values(self.game), self.pal))

    def command(self, cmd: Command) -> None:
        """Carry out one command other than quit."""
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
        while not self.game.is_over:
            line = read("> ")
            try:
                cmd = Command("quit") if line is None else parse_command(line)
                if cmd.name == "quit":
                    break
                self.command(cmd)
            except (UnknownCommand, sc.IllegalActionError, sc.RecordError) as err:
                self.say(f"! {err}")
        if not self.game.is_over:
            why = "End of input" if line is None else "Quit"
            self.say(f"{why}: stopped after {plural(self.game.steps, 'action')}; "
                     f"{self.write_record()}.")
            return 0
        self.say(*render_game_over(self.game, self.pal), f"({self.write_record()})")
        self.say("Reviewing the game (fair agent and exact solver)...")
        self.out.flush()
        self.say(*_review_lines(self.game.record(), self.pal))
        return 0


def _review_lines(record: sc.GameRecord, pal: Palette) -> list[str]:
    from ..play.review import review

    return render_review(review(record, solve_seconds=REVIEW_SOLVE_SECONDS), pal)


def _warm_hints(game: Session) -> None:
    from ..play.hints import warm_up

    warm_up(game)


def _review(path: str, pal: Palette, out: TextIO) -> int:
    record = sc.GameRecord.load(path)
    deal = f"seed {record.seed}" if record.seed is not None else "given deck"
    print(f"Game record {path}: {plural(len(record.line), 'action')}, "
          f"{record.variant}/{record.weapon_rule}, {deal}", file=out)
    print("\n".join(_review_lines(record, pal)), file=out)
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
    loop = _Game(game, args.record, pal, out)
    loop.say(pal.bold(f"Scoundrel: {where}.") + " Type help for the commands.")
    if sys.stdin.isatty() and out.isatty():
        # A person reads the room first: load the hint kernels meanwhile (daemon: an early
        # quit does not wait for it). Scripts through a pipe skip it and pay only if they ask.
        threading.Thread(target=_warm_hints, args=(game,), daemon=True).start()
    try:
        return loop.run(_reader(sys.stdin, out))
    except KeyboardInterrupt:
        if out.isatty():
            print(file=out)  # leave the line with the prompt and ^C
        try:
            saved = loop.write_record()
        except sc.RecordError as err:
            saved = str(err)
        raise Interrupted(saved, after=plural(game.steps, "action")) from None


def main(argv: Sequence[str] | None = None) -> int:
    """``scoundrel-play``: returns the exit code (0, 2 bad input, 130 Ctrl-C)."""
    return run_command(PROG, lambda: _main(argv))


if __name__ == "__main__":
    raise SystemExit(main())
