"""`scoundrel-value`: the learned value's data, calibration tables and model.

    scoundrel-value data --variant classic/strict --seeds 1000000:1001000 --out games.jsonl \
        [--explore K]
    scoundrel-value parquet games.jsonl [more.jsonl ...] --out decisions.parquet
    scoundrel-value calibration decisions.parquet [--bins 10] [--model MODEL.json] [--json]
    scoundrel-value fit decisions.parquet [...] --out MODEL.json [--hidden 16] [--alpha 10]
    scoundrel-value shown decisions.parquet [...] --model MODEL.json --out SHOWN.json [--c 1]

``data`` plays the fair agent on each seed and appends one line per game (every
decision: what the player saw, every action's shown values, the outcome); a rerun
skips the seeds already in the file. ``--explore K`` opens each game with 0..K random
moves (drawn from its seed) before the agent takes over, and records the agent's
decisions only. Ctrl-C lets the game in flight finish first (a
second loses it); SIGTERM and SIGHUP stop at once, losing only the game in flight.
``parquet`` flattens games into one row per decision (``data/README.md`` documents
the columns). ``calibration`` prints how well the shown chances of winning match
the games' outcomes (and a learned model's, given one). ``fit`` fits the learned
value on training decisions (never of the evaluation seeds 0..9999; needs the
``train`` extra). ``shown`` fits the calibration of the chances and expected scores
shown to a player (the search's, recalibrated with the learned value beside them) on
training decisions; ``calibration --shown`` measures one on held-out decisions, the
chances against the outcomes and the expected scores against the final scores.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tqdm import tqdm

import scoundrel_core as sc

from .options import (
    FinishThenStop,
    Interrupted,
    Parser,
    UsageError,
    add_seeds_option,
    add_version_option,
    positive_int,
    run_command,
)

__all__ = ["main"]

PROG = "scoundrel-value"


def _parser() -> argparse.ArgumentParser:
    p = Parser(prog=PROG, description=__doc__.split("\n")[0] if __doc__ else None)
    add_version_option(p)
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
    d = sub.add_parser("data", help="play the fair agent and record every decision")
    d.add_argument("--variant", default="classic/strict",
                   help="the rule set, e.g. classic/strict (default), hard/equal")
    add_seeds_option(d, "the deals to play, A:B (seeds A to B-1)")
    d.add_argument("--out", type=Path, required=True, help="the JSON-lines file to append to")
    d.add_argument("--explore", type=int, default=0, metavar="K",
                   help="open each game with 0..K random legal moves, drawn from its seed and "
                        "not recorded (positions and losses the agent's own play never "
                        "reaches; 0, the default: none)")
    d.add_argument("--quiet", action="store_true", help="no progress bar")
    q = sub.add_parser("parquet", help="games (JSON lines) to one row per decision (Parquet)")
    q.add_argument("games", type=Path, nargs="+",
                   help="JSON-lines files of `data`, or Parquet files of `parquet` to join")
    q.add_argument("--out", type=Path, required=True, help="the Parquet file to write")
    c = sub.add_parser("calibration", help="shown chances of winning against outcomes")
    c.add_argument("decisions", type=Path, help="a Parquet file of `parquet` (or JSON lines)")
    c.add_argument("--bins", type=positive_int, default=10,
                   help="equal-width bins of the chance (default 10, at most 100)")
    c.add_argument("--model", type=Path, default=None,
                   help="also a learned value model (JSON) on the same decisions")
    c.add_argument("--shown", type=Path, default=None,
                   help="also the chances and expected scores a calibration file (of `shown`) "
                   "shows for them")
    c.add_argument("--json", action="store_true", help="print JSON instead of a table")
    f = sub.add_parser("fit", help="fit the learned value on training decisions")
    f.add_argument("decisions", type=Path, nargs="+", help="Parquet files of `parquet` "
                   "(or JSON lines of `data`)")
    f.add_argument("--out", type=Path, required=True, help="the model file (JSON) to write")
    f.add_argument("--hidden", default="16",
                   help="hidden layer widths, comma-separated (default 16)")
    f.add_argument("--max-iter", type=positive_int, default=200,
                   help="training epochs at most (default 200, at most 10000)")
    f.add_argument("--alpha", type=float, default=10.0,
                   help="L2 penalty, sklearn's (divided by the rows; default 10)")
    w = sub.add_parser("shown", help="fit the calibration of the shown chance and score")
    w.add_argument("decisions", type=Path, nargs="+", help="Parquet files of `parquet` "
                   "(or JSON lines of `data`)")
    w.add_argument("--model", type=Path, required=True,
                   help="the learned value model (JSON) the calibration reads")
    w.add_argument("--out", type=Path, required=True, help="the calibration file to write")
    w.add_argument("--c", type=float, default=1.0,
                   help="inverse L2 penalty, sklearn's C (default 1)")
    return p


def _stamp(provenance: Any) -> dict[str, str]:
    """The provenance of this run named as the console script, however it was started
    (``python -m scoundrel_solver.cli.value`` would name the module's path)."""
    return dict(provenance([PROG, *sys.argv[1:]]))


def _data(args: argparse.Namespace) -> int:
    from ..fair.value.selfplay import MAX_EXPLORE, MAX_GAMES, done_seeds, record_games

    if args.seeds is None:
        raise UsageError("data needs --seeds A:B")
    if args.seeds.count > MAX_GAMES:
        raise UsageError(f"--seeds {args.seeds.start}:{args.seeds.stop} asks for "
                         f"{args.seeds.count:,} games; at most {MAX_GAMES:,} a run")
    if not 0 <= args.explore <= MAX_EXPLORE:
        raise UsageError(f"--explore {args.explore}: 0..{MAX_EXPLORE} random moves")
    variant = sc.get_variant(args.variant)
    before = (done_seeds(args.out, variant, args.explore) if args.out.exists()
              else set())
    bar = tqdm(total=args.seeds.count, desc=f"{variant} games", unit="game", file=sys.stderr,
               disable=args.quiet, mininterval=1.0 if sys.stderr.isatty() else 30.0,
               dynamic_ncols=True)
    wins = [0, 0]

    def progress(game: dict[str, Any]) -> None:
        wins[0] += int(game["won"])
        wins[1] += 1
        bar.set_postfix(won=f"{wins[0] / wins[1]:.1%}", refresh=False)
        bar.update(1)

    with FinishThenStop() as stop, bar:
        try:
            written = record_games(args.seeds, variant, args.out, stop=lambda: stop.pressed,
                                   progress=progress, explore=args.explore)
        except KeyboardInterrupt:  # SIGTERM, SIGHUP or a second Ctrl-C: the game in flight
            # is lost, every game before it was appended whole
            written = len(done_seeds(args.out, variant) - before) if args.out.exists() else 0
            raise Interrupted(f"{written} games appended to {args.out}; the same command "
                              "resumes", after=f"{written} games") from None
        if stop.pressed:
            raise Interrupted(f"{written} games appended to {args.out}; the same command "
                              "resumes", after=f"{written} games")
    print(f"{written} games appended to {args.out}")
    return 0


def _parquet(args: argparse.Namespace) -> int:
    from ..fair.value.selfplay import to_parquet
    from ..provenance import provenance

    for path in args.games:
        if not path.is_file():
            raise UsageError(f"no games file {str(path)!r}")
    games, rows = to_parquet(args.games, args.out, _stamp(provenance))
    print(f"{games} games, {rows} decisions written to {args.out}")
    return 0


def _calibration(args: argparse.Namespace) -> int:
    from ..fair.value.calibration import MAX_BINS, calibration_report, format_report

    if args.bins > MAX_BINS:
        raise UsageError(f"--bins {args.bins}: at most {MAX_BINS}")
    if not args.decisions.is_file():
        raise UsageError(f"no decisions file {str(args.decisions)!r}")
    for opt, path in (("--model", args.model), ("--shown", args.shown)):
        if path is not None and not path.is_file():
            raise UsageError(f"{opt}: no file {str(path)!r}")
    report = calibration_report(args.decisions, bins=args.bins, model=args.model,
                                shown=args.shown)
    print(json.dumps(report, indent=1) if args.json else format_report(report))
    return 0


def _fit(args: argparse.Namespace) -> int:
    from ..fair.value.model import MAX_LAYER, MAX_LAYERS
    from ..provenance import provenance

    try:
        hidden = [int(h) for h in args.hidden.split(",")]
    except ValueError:
        raise UsageError(f"--hidden {args.hidden!r}: widths such as 32 or 64,32") from None
    if not 1 <= len(hidden) < MAX_LAYERS or not all(1 <= h <= MAX_LAYER for h in hidden):
        raise UsageError(f"--hidden {args.hidden!r}: 1..{MAX_LAYERS - 1} widths of "
                         f"1..{MAX_LAYER}")
    if args.max_iter > 10_000:
        raise UsageError(f"--max-iter {args.max_iter}: at most 10000")
    if not 0.0 <= args.alpha <= 100.0:
        raise UsageError(f"--alpha {args.alpha}: 0..100")
    for path in args.decisions:
        if not path.is_file():
            raise UsageError(f"no decisions file {str(path)!r}")
    try:
        from ..fair.value.train import fit_file
    except ImportError as err:
        raise UsageError(f"fit needs the train extra (pip install scoundrel-solver[train]): {err}"
                         ) from None
    model = fit_file(args.decisions, hidden, stamp=_stamp(provenance), max_iter=args.max_iter,
                     alpha=args.alpha)
    model.save(args.out)
    print(f"model of {model.fit['decisions']:,} decisions ({model.fit['games']:,} games) "
          f"written to {args.out}")
    return 0


def _shown(args: argparse.Namespace) -> int:
    from ..fair.value.model import load_model
    from ..provenance import provenance

    for path in [*args.decisions, args.model]:
        if not path.is_file():
            raise UsageError(f"no file {str(path)!r}")
    try:
        from ..fair.value.shown_fit import MAX_C, fit_shown_file
    except ImportError as err:
        raise UsageError(f"shown needs the train extra (pip install scoundrel-solver[train]): "
                         f"{err}") from None
    if not 0 < args.c <= MAX_C:
        raise UsageError(f"--c {args.c}: above 0, at most {MAX_C:g}")
    shown = fit_shown_file(args.decisions, load_model(args.model), c=args.c,
                           stamp=_stamp(provenance))
    shown.save(args.out)
    print(f"calibration of {shown.fit['decisions']:,} decisions ({shown.fit['games']:,} games) "
          f"written to {args.out}")
    return 0


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    run = {"data": _data, "parquet": _parquet, "calibration": _calibration,
           "fit": _fit, "shown": _shown}[args.command]
    return run(args)


def main(argv: Sequence[str] | None = None) -> int:
    """``scoundrel-value``: returns the exit code (0, 2 bad input, 130 Ctrl-C)."""
    return run_command(PROG, lambda: _main(argv))


if __name__ == "__main__":
    raise SystemExit(main())
