"""Play the fair agent with given settings on a seed range: one arm of a paired A/B test.

    python experiments/fair_ab.py --seeds 31000:32000 --out a.jsonl
    python experiments/fair_ab.py --seeds 31000:32000 --out b.jsonl --opt shallow_above=30
    python experiments/fair_paired.py a.jsonl b.jsonl --variant '' --weapon-rule ''

Each ``--opt NAME=INT`` is one of ``make_agent("fair")``'s options
(``scoundrel_solver.fair.api.FAIR_OPTIONS``: ``node_budget``, ``shallow_above``,
``max_depth``, ``endgame``, ``endgame_samples``) and each ``--weight NAME=NUMBER`` one of its
leaf weights (``scoundrel_solver.fair.leaf.LEAF_WEIGHTS``, ``win_bonus`` among
them), and ``--model FILE`` plays the win model of a model file written by
``scripts/train_fair_leaf.py fit --out FILE``; none plays the agent as shipped. One JSON
line per game, appended as the game ends, so a stopped run resumes (seeds
already in ``--out`` are skipped): ``seed``, ``won``, ``score``, ``cpu`` (CPU
seconds of the game, one core), ``worst`` (CPU seconds of its slowest
decision), ``decisions`` and ``over_1s`` (how many took over a CPU second: the
share of them says whether the decisions' 99th percentile is under a second).
``--model-name NAME`` picks a model of the file by name (a win net among them).
Two arms on the same seeds, compared by ``experiments/fair_paired.py``,
give the wins both ways, a sign test and a paired interval. Keep the seeds
outside the evaluation range 0-9999.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from scoundrel_core.errors import VariantError
from scoundrel_core.variants import get_variant
from scoundrel_solver.fair.agent import FairAgent
from scoundrel_solver.fair.api import FAIR_OPTIONS, play_with
from scoundrel_solver.fair.config import agent_config, configs_with
from scoundrel_solver.fair.leaf import LEAF_WEIGHTS, win_model_from
from scoundrel_solver.fair.protocol import Agent
from scoundrel_solver.runs.jsonl import append_missing, read_json_lines
from scoundrel_solver.runs.seeds import SeedRange, parse_seed_range

# the decision timer lives beside the data scripts, which use it too (no part of the package)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from timed import TimedAgent

OPTIONS = tuple(FAIR_OPTIONS)


def play(agent: Agent, seed: int, variant: str) -> dict[str, object]:
    """One game: its outcome, its CPU time and its slowest decision's."""
    timed = TimedAgent(agent)
    start = time.process_time()
    game = play_with(timed, seed, variant)
    return {"seed": seed, "won": bool(game.won), "score": game.score,
            "cpu": round(time.process_time() - start, 3), "worst": round(max(timed.seconds), 3),
            "decisions": len(timed.seconds), "over_1s": sum(t > 1.0 for t in timed.seconds)}


def arm_seeds(p: argparse.ArgumentParser, args: argparse.Namespace
              ) -> tuple[SeedRange, set[int]]:
    """An arm's ``--variant`` checked and its ``--seeds``, with the seeds ``--out`` holds
    already; a bad one is named through ``p.error``."""
    try:
        get_variant(args.variant)
    except VariantError as e:
        p.error(f"--variant {args.variant!r}: {e}")
    try:
        seeds = parse_seed_range(args.seeds)
    except ValueError as e:
        p.error(f"--seeds {args.seeds!r}: {e}")
    done = ({int(row["seed"]) for _, row in read_json_lines(args.out)}
            if args.out.exists() else set())
    return seeds, done


def run_arm(out: Path, seeds: SeedRange, done: set[int],
            game: Callable[[int], dict[str, object]]) -> int:
    """Append ``game(seed)`` to ``out`` for each seed not ``done``; the exit status. A
    Ctrl-C keeps every finished game and says how many this run added (130)."""
    saved = [0]

    def count(_seed: int, _game: dict[str, object]) -> None:
        saved[0] += 1

    try:
        append_missing(out, seeds, done, game, progress=count)
    except KeyboardInterrupt:
        print(f"interrupted: {saved[0]} games saved in {out}", file=sys.stderr)
        return 130
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", required=True, help="A:B")
    p.add_argument("--variant", default="classic/strict")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--opt", action="append", default=[], metavar="NAME=INT",
                   help=f"a FairAgent setting ({', '.join(OPTIONS)}); repeatable")
    p.add_argument("--weight", action="append", default=[], metavar="NAME=NUMBER",
                   help=f"a leaf weight ({', '.join(LEAF_WEIGHTS)}); repeatable")
    p.add_argument("--model", type=Path, metavar="FILE",
                   help="play the win model of this model file (train_fair_leaf.py fit --out)")
    p.add_argument("--model-name", metavar="NAME",
                   help="the model of that name in --model (default: the variant's)")
    args = p.parse_args(argv)
    opts: dict[str, int] = {}
    for o in args.opt:
        name, _, value = o.partition("=")
        if name not in OPTIONS or not value.lstrip("-").isdigit():
            p.error(f"--opt {o!r}: expected NAME=INT with NAME one of {', '.join(OPTIONS)}")
        opts[name] = int(value)
    weights: dict[str, float] = {}
    for o in args.weight:
        name, _, value = o.partition("=")
        try:
            weights[name] = float(value)
        except ValueError:
            p.error(f"--weight {o!r}: expected NAME=NUMBER")
        if name not in LEAF_WEIGHTS:
            p.error(f"--weight {o!r}: NAME must be one of {', '.join(LEAF_WEIGHTS)}")
    if args.out.suffix == ".parquet":
        p.error(f"--out {args.out}: an arm is written as JSON lines (a Parquet record is read, "
                "never played into)")
    seeds, done = arm_seeds(p, args)
    model: tuple[float, ...] | str = "shipped"
    if args.model:
        try:
            model = win_model_from(args.model, str(get_variant(args.variant)),
                                   args.model_name)
        except (OSError, ValueError, KeyError) as e:
            p.error(f"--model {args.model}: {e}")
    changes: dict[str, object] = {FAIR_OPTIONS[k]: v for k, v in opts.items()}
    if "win_bonus" in weights:
        changes["win_bonus"] = weights.pop("win_bonus")
    if weights:
        # The kills weight counts kills, so it takes an integer; the rest are numbers.
        leaf_changes: dict[str, Any] = {
            k: int(v) if k == "kills" else v for k, v in weights.items()}
        changes["leaf"] = replace(agent_config(args.variant).leaf, **leaf_changes)
    if model != "shipped":
        changes["win_model"] = model
    agent = FairAgent(configs_with(**changes))
    return run_arm(args.out, seeds, done, lambda seed: play(agent, seed, args.variant))


if __name__ == "__main__":
    sys.exit(main())
