"""Round twenty-five's ranking set of late positions at every health, labelled by the search.

    python data/experiments/round-25/health_set.py --part 0/2 [--cache DIR]

The one-ply policy steers into low health late in the game, where the fair agent's own
games (the ranking set's positions) seldom go, and its value is far too hopeful there. This
set takes the decision states of the fair agent's training games
(``data/value-decisions-train.parquet``, each game replayed from its seed) with at most
``--unseen`` cards unseen, every ``--every``-th of them, gives each a health drawn
uniformly from 1..20 (a generator seeded by the game's seed and the decision's number),
and labels every legal action with the shipped fair agent's search
(``rank_set_of_positions``, 16 deals drawn and up to 32 enumerated, as the shipped
policy's set; ``--order`` for rows with the bottom's order). Games are split across
``--part`` processes and saved by chunks of ``--chunk`` games in ``--cache``
(``health-PART-FIRST-N.npz``): a rerun labels only the chunks missing, a stop loses at
most the chunk in progress.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "scripts"))

import scoundrel_core as sc  # noqa: E402
from policy_rank import BASE, games_of  # noqa: E402
from scoundrel_core.info import InfoState, observe  # noqa: E402
from scoundrel_solver.fair.value.policy_rank import rank_set_of_positions  # noqa: E402

_HEALTH = re.compile(r"health=\d+")


def positions(games: list[list[dict]], unseen: int, every: int) -> list[tuple[int, InfoState]]:
    """The games' late decision states, every ``every``-th, each at a random health."""
    out = []
    for g in games:
        seed = int(g[0]["seed"])
        s = sc.new_game(seed=seed, variant="classic")
        info = InfoState.initial(s)
        late = 0
        for r in g:
            if 0 < len(info.unseen) <= unseen:
                if late % every == 0:
                    h = random.Random(seed * 1000 + int(r["decision"])).randint(1, sc.MAX_HEALTH)
                    with contextlib.suppress(sc.ScoundrelError):  # a health it cannot have
                        out.append((seed, InfoState.from_text(
                            _HEALTH.sub(f"health={h}", info.to_text(), count=1))))
                late += 1
            a = sc.parse_action(s, r["action"])
            nxt = sc.apply(s, a)
            info, s = observe(info, a, nxt), nxt
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--part", default="0/1", help="I/N: this process's share of the games")
    p.add_argument("--cache", type=Path, default=Path("/tmp/policy-rank"))
    p.add_argument("--unseen", type=int, default=24)
    p.add_argument("--every", type=int, default=3)
    p.add_argument("--chunk", type=int, default=50)
    p.add_argument("--games", type=int, default=3821, help="the first this many games")
    p.add_argument("--order", action="store_true")
    args = p.parse_args()
    i, n = (int(v) for v in args.part.split("/"))
    games = games_of(BASE)[: args.games][i::n]
    args.cache.mkdir(parents=True, exist_ok=True)
    tag = "-order" if args.order else ""
    for start in range(0, len(games), args.chunk):
        path = args.cache / f"health-{i}of{n}-{start}-{args.chunk}{tag}.npz"
        if path.exists():
            continue
        t = time.process_time()
        part = positions(games[start:start + args.chunk], args.unseen, args.every)
        rs = rank_set_of_positions(part, "classic", deals=16, exact=32, order=args.order)
        rs.save(path)
        print(f"{time.strftime('%H:%M:%S')} {path.name}: {rs.decisions:,} decisions in "
              f"{time.process_time() - t:.0f} CPU s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
