"""Options the commands share, and the one way every command reports trouble.

- The deal options ``--seed/--deck/--daily/--state/--seeds`` and the variant
  options, defined once; :func:`deal_from` and :func:`variant_from` read them.
- One error style: bad input ends the command with exit 2 and ONE line on
  stderr, ``prog: error: message``, never a traceback (argparse's own errors
  included); Ctrl-C ends it with exit 130 and one line saying what was saved.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import errno
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import FrameType
from typing import Any, Final, NoReturn

import scoundrel_core as sc
from scoundrel_core import __version__

from ..runs.seeds import SeedRange, parse_seed_range
from ..runs.workers import WorkerDied

__all__ = [
    "STOP_SIGNALS",
    "Deal",
    "FinishThenStop",
    "Interrupted",
    "Parser",
    "UsageError",
    "add_deal_options",
    "add_seeds_option",
    "add_variant_options",
    "add_version_option",
    "check_agrees",
    "deal_from",
    "finished",
    "given",
    "int_within",
    "non_negative_int",
    "positive_float",
    "positive_int",
    "refuse",
    "run_command",
    "seed_range",
    "system_error",
    "table_mib_from",
    "variant_from",
    "worker_count",
]


class UsageError(sc.ScoundrelError):
    """Options that do not fit together, or a value an option does not take."""


class Interrupted(Exception):
    """Ctrl-C caught by a command; the message says what was saved, ``after`` how far it got.

    >>> str(Interrupted("record written to g.json", after="3 actions"))
    'record written to g.json'
    """

    def __init__(self, saved: str, after: str | None = None) -> None:
        super().__init__(saved)
        self.after = after


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are :class:`UsageError` (one line, exit 2), not usage."""

    def error(self, message: str) -> NoReturn:
        """Raise :class:`UsageError` with argparse's message (one line, exit 2), with a
        hint when a bare number stood where an option was meant."""
        raise UsageError(message + self._hint(message))

    def _hint(self, message: str) -> str:
        """A bare number where an option was meant: say which option takes it."""
        head = "unrecognized arguments: "
        if not message.startswith(head):
            return ""
        word = message[len(head):].split(" ", 1)[0]
        if not (word.isascii() and word.replace(":", "", 1).isdigit()):
            return ""
        for flag in (("--seeds",) if ":" in word else ("--seed", "--seeds")):
            if flag in self._option_string_actions:
                return f" (a seed is given as {flag} {word})"
        return ""


# --- how a command ends ---------------------------------------------------------------------

STOP_SIGNALS: Final = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""Closing the terminal (SIGHUP) and ``kill`` (SIGTERM) stop a command as Ctrl-C does."""

_received: list[int] = []
_MAX_LINE: Final = 500  # an error line is for a person: never a whole input


def _like_ctrl_c(signum: int, frame: FrameType | None) -> None:
    """Hand SIGTERM/SIGHUP to whatever answers Ctrl-C now (a batch's "finish this deal
    first" included), so every command saves what it has in one way for all three."""
    _received.append(signum)
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler):
        handler(signum, frame)
    else:  # default or ignored for a moment (starting workers): stop now all the same
        raise KeyboardInterrupt


class FinishThenStop:
    """The first Ctrl-C lets the item being worked on finish and its row be written,
    then the loop, which checks ``pressed`` between items, stops, so the count of saved
    rows is exact; a second one stops at once. SIGTERM and SIGHUP (handed here by
    :func:`run_command`) stop at once: whoever sends them (a service manager, a closed
    terminal) may not wait for a deal that has minutes to run.

    The first press sets a flag, never raises mid-item: a KeyboardInterrupt raised
    while numba converts its arguments surfaces as a TypeError. Stopping at once
    reaches a run only where its kernels run in a worker
    (:class:`~scoundrel_solver.runs.workers.KernelWorker`): a main thread inside a
    kernel hears no signal until the kernel returns.
    """

    def __init__(self, signals: Iterable[int] = (signal.SIGINT,)) -> None:
        self.pressed = False
        self.signals = tuple(signals)
        self._previous: dict[int, Any] = {}

    def _press(self, signum: int, frame: FrameType | None) -> None:
        if self.pressed or signum != signal.SIGINT:
            self.pressed = True
            raise KeyboardInterrupt
        self.pressed = True

    def __enter__(self) -> FinishThenStop:
        self._previous = {sig: signal.signal(sig, self._press) for sig in self.signals}
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)


def _one_line(text: str) -> str:
    """Messages on one bounded line: the start and the end (where the reason is) kept."""
    text = " ".join(text.split("\n"))
    if len(text) <= _MAX_LINE:
        return text
    return f"{text[:300]} [... {len(text) - 450:,} characters ...] {text[-150:]}"


def _tell(prog: str, text: str) -> None:
    """The last line; a closed terminal (SIGHUP) or a full disk may refuse it: then nothing."""
    with contextlib.suppress(OSError, ValueError):
        print(f"{prog}: {_one_line(text)}", file=sys.stderr)
        sys.stderr.flush()


def system_error(err: OSError) -> str:
    """An OSError in words, the file named when there is one."""
    where = f" {err.filename!r}" if err.filename is not None else ""
    if err.filename == STDOUT:
        where = " writing standard output"
    elif where:
        where = " writing" + where if err.errno == errno.ENOSPC else ":" + where
    if err.errno == errno.ENOSPC:
        return f"disk full{where}"
    return f"{err.strerror or err}{where}"


STDOUT: Final = "standard output"


def _flush_stdout() -> None:
    """Flush what a command printed, so a full device is told here, naming the output."""
    try:
        sys.stdout.flush()
    except OSError as err:
        raise OSError(err.errno, err.strerror, STDOUT) from None


class _NamedStdout:
    """Standard output whose failures say it was standard output (a full device, an EIO
    after the terminal closed), so the one error line can name it."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return int(self._stream.write(text))
        except BrokenPipeError:
            raise
        except OSError as err:
            raise OSError(err.errno, err.strerror, STDOUT) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as err:
            raise OSError(err.errno, err.strerror, STDOUT) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _drop_stdout() -> None:
    """After a failed write to stdout, send the rest nowhere: Python would try the buffered
    text again at exit and print a traceback of its own."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def add_version_option(p: argparse.ArgumentParser) -> None:
    """``--version``: the command's name and the package version, then exit 0."""
    p.add_argument("--version", action="version", version=f"{p.prog} {__version__}")


def _ignore_stops() -> None:
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, *STOP_SIGNALS):
            signal.signal(sig, signal.SIG_IGN)


def finished(code: int) -> int:
    """``code``, once a command's ``main`` has returned it and its process is about to
    exit: from now on stop signals are ignored, so a second Ctrl-C while Python shuts
    down (unloading the compiled kernels takes a moment) neither prints a traceback nor
    changes the exit code the one line told. For entry points only: a caller that goes
    on would keep Ctrl-C ignored."""
    _ignore_stops()
    return code


def run_command(prog: str, body: Callable[[], int]) -> int:
    """Run a command's body with the shared exit codes: 0 or its own, 1 the system failed
    (a full disk, an unwritable output), 2 bad input, 130 Ctrl-C (128 + the signal for
    SIGTERM and SIGHUP, which stop it the same way)."""
    _received.clear()
    previous: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        previous[signal.SIGINT] = signal.getsignal(signal.SIGINT)  # restored after a stop
        for sig in STOP_SIGNALS:
            previous[sig] = signal.signal(sig, _like_ctrl_c)
    real_stdout = sys.stdout
    sys.stdout = _NamedStdout(real_stdout)
    try:
        code = body()
        _flush_stdout()
        return code
    except (Interrupted, KeyboardInterrupt) as stop:
        _ignore_stops()  # a second Ctrl-C now would cut the one line short
        how, code = "interrupted", 130
        if _received:
            how = f"stopped by {signal.Signals(_received[0]).name}"
            code = 128 + _received[0]
        if isinstance(stop, Interrupted):
            when = f" after {stop.after}" if stop.after is not None else ""
            _tell(prog, f"{how}{when}; {stop}")
        else:
            _tell(prog, f"{how}; nothing saved")
        return code
    except ValueError as err:  # ScoundrelError and UsageError included
        _tell(prog, f"error: {err}")
        return 2
    except WorkerDied as err:  # the OOM killer, a kill -9: the system failed
        _tell(prog, f"error: {err}")
        return 1
    except BrokenPipeError:  # the reader left (`| head`): the entry point ends quietly
        raise
    except OSError as err:  # the system refused: a full disk, a vanished directory
        if err.filename == STDOUT:
            _drop_stdout()
        _tell(prog, f"error: {system_error(err)}")
        return 1
    finally:
        sys.stdout = real_stdout
        for sig, handler in previous.items():
            if handler is not None:  # None: set outside Python, cannot be restored
                signal.signal(sig, handler)


# --- values ---------------------------------------------------------------------------------


def _number(kind: type[int] | type[float], text: str, least: float, what: str) -> int | float:
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
    if not value >= least:  # also refuses NaN
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}")
    return value


def positive_int(text: str) -> int:
    """An argparse type: an integer of at least 1.

    >>> positive_int("12")
    12
    >>> positive_int("-5")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: '-5' is not a positive integer
    """
    return int(_number(int, text, 1, "a positive integer"))


def non_negative_int(text: str) -> int:
    """An argparse type: an integer of at least 0."""
    return int(_number(int, text, 0, "an integer of at least 0"))


def worker_count(text: str) -> int:
    """An argparse type: a count of worker processes, 1 to
    :data:`~scoundrel_solver.runs.workers.MAX_WORKERS` (checked before any starts).

    >>> worker_count("2")
    2
    >>> worker_count("100000")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    argparse.ArgumentTypeError: 100000 is more worker processes than 256, the most one ...
    """
    from ..runs.workers import check_workers

    n = positive_int(text)
    try:
        return check_workers(n, "")
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err).strip()) from None


def int_within(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer ``low``..``high``, so an option's bound is told in one
    line naming it (argparse adds ``argument --budget:``) before anything is made.

    >>> int_within(1, 10**9)("10")
    10
    >>> int_within(1, 10**9)("1" + "0" * 23)
    Traceback (most recent call last):
    argparse.ArgumentTypeError: '100000000000000000000000' is not an integer 1..1,000,000,000
    """
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:  # words, and integers of over 4,300 digits
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{sc.excerpt(text, 40)} is not an integer {low:,}..{high:,}")
        return value

    parse.__name__ = f"integer {low}..{high}"
    return parse


def positive_float(text: str) -> float:
    """An argparse type: a number above 0."""
    value = float(_number(float, text, 0, "a positive number"))
    if value == 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number")
    return value


def max_nodes(text: str) -> int:
    """An argparse type: ``--max-nodes``, by the one rule the results files' reader uses
    (:func:`~scoundrel_solver.runs.result_rows.node_limit`), so a run never writes a limit
    its own reader refuses."""
    from ..runs.result_rows import node_limit

    try:
        return node_limit(int(text))
    except ValueError as err:
        why = str(err) if "integer 1.." in str(err) else "is not an integer"
        raise argparse.ArgumentTypeError(f"{sc.excerpt(text, 40)} {why}") from None


def max_seconds(text: str) -> float:
    """An argparse type: ``--max-seconds``, a positive finite number (``inf`` and ``nan``
    refused), by the reader's rule (:func:`~scoundrel_solver.runs.result_rows.seconds_limit`)."""
    from ..runs.result_rows import seconds_limit

    try:
        return seconds_limit(float(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{sc.excerpt(text, 40)} is not a positive finite "
                                         "number of seconds") from None


def _flag(dest: str) -> str:
    return "--" + dest.replace("_", "-")


def given(args: argparse.Namespace, dest: str) -> bool:
    """Whether an option was given (options that may be refused default to None or False)."""
    value = getattr(args, dest)
    return value is not None and value is not False


def refuse(args: argparse.Namespace, dests: Iterable[str], why: str) -> None:
    """A UsageError naming the first of these options that was given: it does not apply."""
    for dest in dests:
        if given(args, dest):
            raise UsageError(f"{_flag(dest)} does not apply {why}")


# --- the deal options -----------------------------------------------------------------------


def seed_range(text: str) -> SeedRange:
    """An argparse type: ``A:B`` (seeds A to B-1) or ``N``, kept lazy."""
    try:
        return parse_seed_range(text)
    except sc.SeedError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


# argparse's containers (parsers and groups) share this class; typeshed names it.
_Options = argparse._ActionsContainer


def add_seeds_option(p: _Options, help: str, default: str | None = None) -> None:
    """Add ``--seeds A:B`` (a lazy seed range)."""
    p.add_argument("--seeds", metavar="A:B", type=seed_range, default=default, help=help)


def add_deal_options(
    p: argparse.ArgumentParser,
    seeds_help: str | None = None,
    *,
    state: bool = True,
    daily_today: bool = False,
    no_deal: str = "seed 0",
) -> _Options:
    """``--seed/--deck/--daily/--state/--seeds``: at most one of them.

    Without ``seeds_help`` there is no ``--seeds``; ``state=False`` leaves out
    ``--state``; ``daily_today`` lets ``--daily`` go without a date (today);
    ``no_deal`` tells the help what a command deals when none is given. The
    group is returned, for options a command adds to the choice.
    """
    src = p.add_mutually_exclusive_group()
    src.add_argument("--seed", help=f"seeded deal (integer 0..2**64-1); default: {no_deal}")
    src.add_argument("--deck", help='explicit order, top first: "KS 7D 5H 9C ..." (all 44 cards)')
    if daily_today:
        # Resolved when the parser is made, so the date can be named in what is printed.
        src.add_argument("--daily", metavar="YYYY-MM-DD", nargs="?",
                         const=dt.date.today().isoformat(),
                         help="the daily dungeon of a date (default: today)")
    else:
        src.add_argument("--daily", metavar="YYYY-MM-DD", help="the daily dungeon of that date")
    if state:
        src.add_argument("--state", help="a position in the text form of State.to_text() "
                         "(its variant is the one the text names)")
    else:
        p.set_defaults(state=None)  # deal_from reads it
    if seeds_help is not None:
        add_seeds_option(src, seeds_help)
    return src


def add_variant_options(p: argparse.ArgumentParser, texts_name_theirs: bool = False) -> None:
    """``--variant`` and ``--weapon-rule`` (None when not given, so they can be checked)."""
    own = "; a position text names its own" if texts_name_theirs else ""
    p.add_argument("--variant", default=None,
                   help=f"{', '.join(sc.FLEE_RULES)} (default classic{own})")
    p.add_argument("--weapon-rule", default=None,
                   help=f"{', '.join(sc.WEAPON_RULES)} (default strict{own})")


def variant_from(args: argparse.Namespace) -> sc.Variant:
    """The variant the options name (classic/strict by default)."""
    return sc.get_variant(args.variant if args.variant is not None else "classic",
                          args.weapon_rule)


def check_agrees(args: argparse.Namespace, variant: sc.Variant, what: str) -> None:
    """Refuse ``--variant``/``--weapon-rule`` when they contradict a variant the input names."""
    if args.variant is not None:
        named = sc.get_variant(args.variant)
        rule_named = "/" in args.variant
        if named.name != variant.name or (rule_named and named.weapon_rule != variant.weapon_rule):
            raise UsageError(f"--variant {args.variant} contradicts {what}, which is {variant}")
    if args.weapon_rule is not None:
        rule = sc.get_variant(variant.name, args.weapon_rule).weapon_rule
        if rule != variant.weapon_rule:
            raise UsageError(
                f"--weapon-rule {args.weapon_rule} contradicts {what}, which is {variant}"
            )


@dataclass(frozen=True)
class Deal:
    """The deal (or position) the options name, dealt once: ``start``; ``seed`` when it is
    a seeded deal, and ``where``, a few words naming it for people (``seed 7``, ``given
    deck``, ...)."""

    start: sc.State
    seed: int | None
    where: str


def _seed(text: str) -> int:
    return sc.parse_seed_number(text)


def deal_from(args: argparse.Namespace, default_seed: int = 0) -> Deal:
    """The deal of ``--seed/--deck/--daily/--state`` (``default_seed`` when none is given).

    A ``--state`` text names its own variant; ``--variant``/``--weapon-rule``
    may repeat it but not contradict it.
    """
    if args.state is not None:
        start = sc.parse_state(args.state)
        check_agrees(args, start.variant, "the --state position")
        return Deal(start, None, "given position")
    variant = variant_from(args)
    if args.deck is not None:
        return Deal(sc.new_game(deck=args.deck, variant=variant), None, "given deck")
    if args.daily is not None:
        seed = sc.daily_seed(args.daily)
        where = f"daily dungeon {args.daily} (seed {seed})"
    else:
        seed = _seed(args.seed) if args.seed is not None else default_seed
        where = f"seed {seed}"
    return Deal(sc.new_game(seed=seed, variant=variant), seed, where)


def table_mib_from(args: argparse.Namespace) -> int:
    """``--table-mib`` (or the default), checked up front by arithmetic alone: a size
    more than this machine's memory fails before any work, with a message naming the
    option, its value and the limit. Nothing is allocated here; the solver makes its
    one table when it first searches."""
    from ..errors import SolverError
    from ..exact.table import DEFAULT_TABLE_MIB, check_table_mib

    mib: int = args.table_mib if args.table_mib is not None else DEFAULT_TABLE_MIB
    try:
        return check_table_mib(mib, "--table-mib")
    except SolverError as err:
        raise UsageError(str(err)) from None
