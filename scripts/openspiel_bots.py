"""Play OpenSpiel's own search bots on our deals, one JSON line per game.

    python scripts/openspiel_bots.py --seeds 0:1000 [--bots mcts:10,mcts:40,ismcts:10,ismcts:40]
        [--out data/openspiel-bots.jsonl] [--uct-c 218]

The bots are OpenSpiel's Python ones, unchanged, on the game
``python_scoundrel`` (classic/strict):

- ``mcts:N``: ``open_spiel.python.algorithms.mcts.MCTSBot``, N simulations a
  decision, one random rollout per leaf (``RandomRolloutEvaluator``), MCTS-Solver on;
- ``ismcts:N``: ``open_spiel.python.algorithms.ismcts.ISMCTSBot``, N simulations,
  the same evaluator, worlds from the game's ``resample_from_infostate``.

What they see: at each decision the bot gets a copy of the OpenSpiel state,
which holds the information state only (room, health, weapon and last kill,
flags, the unseen cards as a set, the fled cards at the bottom in order). The
deal stays outside it, in this loop, which applies the deal's card at each
chance node (``scoundrel_core.openspiel.deals.play_deal``). Inside its search a
bot meets chance nodes that list every unseen card with equal probability, so
it samples futures; it never reads the deal. ``uct_c`` defaults to 218, the
spread of the returns (-188..30), as OpenSpiel's usual 2 is the spread of
returns in -1..1.

The run goes seed by seed, every bot on a seed before the next seed, so a run
stopped at any point leaves paired games. Each game is appended (and flushed)
as it ends; a rerun skips the (bot, seed) pairs already in the file, and a
line cut short by a kill is dropped. Rows: bot, simulations, uct_c, variant,
weapon_rule, seed, score, won, decisions, cpu_seconds (CPU time of the game
in this process), seconds (wall), actions (the line played, notation).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
from tqdm import tqdm

import scoundrel_core.openspiel  # noqa: F401  (registers python_scoundrel)
from scoundrel_core.openspiel.deals import play_deal

GAME = "python_scoundrel(variant=classic,weapon_rule=strict)"
DEFAULT_BOTS = "mcts:10,mcts:40,ismcts:10,ismcts:40"
UCT_C = 218.0


def read_games(path: Path) -> list[dict[str, Any]]:
    """The games stored so far; a line a kill cut short (the last one) is skipped."""
    if not path.exists():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return rows


def make_bot(game: pyspiel.Game, kind: str, sims: int, uct_c: float, seed: int) -> Any:
    rng = np.random.RandomState(seed)
    rollouts = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    if kind == "mcts":
        return mcts.MCTSBot(game, uct_c=uct_c, max_simulations=sims, evaluator=rollouts,
                            random_state=rng)
    if kind == "ismcts":
        return ismcts.ISMCTSBot(game, rollouts, uct_c=uct_c, max_simulations=sims,
                                random_state=rng)
    raise SystemExit(f"unknown bot {kind!r}; known: mcts, ismcts")


def parse_bots(text: str) -> list[tuple[str, int]]:
    bots = []
    for item in text.split(","):
        kind, _, sims = item.strip().partition(":")
        if kind not in ("mcts", "ismcts") or not sims.isdigit() or int(sims) < 1:
            raise SystemExit(f"bad bot {item!r}: expected mcts:N or ismcts:N, N >= 1")
        bots.append((kind, int(sims)))
    return bots


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seeds", default="0:1000", help="deal seeds A:B (B excluded)")
    p.add_argument("--bots", default=DEFAULT_BOTS)
    p.add_argument("--out", type=Path, default=Path("data/openspiel-bots.jsonl"))
    p.add_argument("--uct-c", type=float, default=UCT_C)
    args = p.parse_args(argv)
    a, _, b = args.seeds.partition(":")
    if not (a.isdigit() and b.isdigit() and int(a) < int(b)):
        raise SystemExit(f"bad --seeds {args.seeds!r}: expected A:B with A < B")
    bots = parse_bots(args.bots)
    game = pyspiel.load_game(GAME)
    done = {(r["bot"], r["simulations"], r["seed"]) for r in read_games(args.out)}
    todo = [(s, k, n) for s in range(int(a), int(b)) for k, n in bots if (k, n, s) not in done]
    # SIGTERM stops like Ctrl-C: between games nothing is lost, mid-game only that game.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    try:
        with args.out.open("a", encoding="utf-8") as out:
            for seed, kind, sims in tqdm(todo, desc="bot games", unit="game"):
                bot = make_bot(game, kind, sims, args.uct_c, seed)
                t, cpu = time.perf_counter(), time.process_time()
                played = play_deal(game, bot.step, seed)
                row = {
                    "bot": kind, "simulations": sims, "uct_c": args.uct_c,
                    "variant": "classic", "weapon_rule": "strict", "seed": seed,
                    "score": played.score, "won": played.won,
                    "decisions": len(played.actions),
                    "cpu_seconds": round(time.process_time() - cpu, 3),
                    "seconds": round(time.perf_counter() - t, 3),
                    "actions": " ".join(played.actions),
                }
                out.write(json.dumps(row) + "\n")
                out.flush()
    except KeyboardInterrupt:
        print("stopped; rerun the same command to go on", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
