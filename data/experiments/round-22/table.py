"""The paired table of round twenty-two and its cost check, from the round's files (run
from the repository's root).

    python data/experiments/round-22/table.py

The table pairs classic/strict's agent whose endgame races its close actions on up to
32 orders (``AgentConfig.endgame_cap=32``: its ties of wins broken by the scores of the
first 8 orders, ``race-*.jsonl``; of every order drawn, ``all32-*.jsonl``; of the
first 16, ``scored16-*.jsonl``; of 8 orders, doubled while the tied totals are within a
point an order, ``margin1-*.jsonl``) with the agent as shipped on the same deals
(``experiments/fair_paired.py``'s figures): the shipped agent's games are
round nine's (``data/experiments/round-9/fair-games.parquet``, then
``data/fair-games.parquet``'s), whose CPU seconds were recorded at another time. The
cost check (``benchmarks/compare_fair_games.py --out``) played the agent of the last
round's revision and this round's in turn on the same deals: each side's median CPU
seconds a game and the ratios.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "experiments"))
from fair_paired import HEADER, halves, load_parts, load_rows, print_rows  # noqa: E402

HERE = Path(__file__).resolve().parent
# classic/strict's shipped games until round twenty-three's candidate was adopted
ROUND_9 = ROOT / "data" / "experiments" / "round-9" / "fair-games.parquet"
# each arm ran as two processes, seeds 0-999 and 1000-1999
RACE = (HERE / "race-a.jsonl", HERE / "race-b.jsonl")
ALL32 = (HERE / "all32-a.jsonl", HERE / "all32-b.jsonl")
SCORED16 = (HERE / "scored16-a.jsonl", HERE / "scored16-b.jsonl")
MARGIN1 = (HERE / "margin1-a.jsonl", HERE / "margin1-b.jsonl")
COSTS = {"the same agent, its solves sped up": HERE / "cost-shipped.jsonl",
         "the race, ties broken on 8 orders (endgame_cap=32)": HERE / "cost-race.jsonl",
         "the race, ties broken on every order (endgame_scored=32)": HERE / "cost-all32.jsonl",
         "the race, ties broken on 16 orders (endgame_scored=16)": HERE / "cost-scored16.jsonl",
         "the race, its ties' scores racing (endgame_score_margin=1)": HERE / "cost-margin1.jsonl"}


def cost_lines(name: str, path: Path) -> list[str]:
    """A cost check's line: each side's median CPU seconds a game and the ratios."""
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    sides = {s: {r["seed"]: r for r in rows if r["side"] == s} for s in ("baseline", "candidate")}
    base, cand = sides["baseline"], sides["candidate"]
    seeds = sorted(set(base) & set(cand))
    b = statistics.median(base[s]["cpu"] for s in seeds)
    c = statistics.median(cand[s]["cpu"] for s in seeds)
    per_deal = statistics.median(cand[s]["cpu"] / base[s]["cpu"] for s in seeds
                                 if base[s]["cpu"] > 0)
    label = {s: next(r["label"] for r in rows if r["side"] == s) for s in sides}
    return [f"{name}: {len(seeds)} deals, seeds {seeds[0]}-{seeds[-1]}; CPU s a game, median "
            f"{c:.3f} ({label['candidate']}) against {b:.3f} ({label['baseline']}): "
            f"ratio of medians {c / b:.2f}, median per-deal ratio {per_deal:.2f}"]


def main() -> int:
    shipped = load_rows(ROUND_9, "classic", "strict", None)
    rows = [("ties broken on 8 orders", load_parts(RACE), shipped),
            ("ties broken on 16 orders", load_parts(SCORED16), shipped),
            ("ties broken on every order", load_parts(ALL32), shipped)]
    margin1 = load_parts(MARGIN1)
    rows += [(f"ties' scores racing, 1 point an order: {name}", arm, base)
             for name, arm, base in halves(margin1, shipped, 1000)]
    print_rows(HEADER, rows)
    for name, path in COSTS.items():
        if path.exists():
            print()
            print("\n".join(cost_lines(name, path)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
