"""The paired tables of round twenty-three, from the round's files (run from the
repository's root).

    python data/experiments/round-23/table.py

The first table pairs classic/strict's candidate (round twenty-two's race whose
tie-breaking scores race too, set in classic/strict's row of the agent's table on the
branch that would adopt it) with the agent as shipped on the evaluation seeds 0-9999:
the deals round twenty-two played, the fresh ones and all of them
(``experiments/fair_paired.py``'s figures; the shipped agent's games are
round nine's, ``data/experiments/round-9/fair-games.parquet``, then
``data/fair-games.parquet``'s). A last line checks that the candidate's games are round
twenty-two's arm's on the deals both played: the same score in the same number of
decisions on every deal.

The second pairs classic/equal's arm (the same race, from 8 sampled orders where
classic/equal's agent draws 16) with the shipped agent on seeds 0-1999. The cost check
(``benchmarks/compare_fair_games.py --out``), where it ran, played the shipped agent and
the arm in turn on the same deals: each side's median CPU seconds a game and the ratios.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "experiments"))
sys.path.insert(0, str(ROOT / "data" / "experiments" / "round-22"))
from table import cost_lines  # noqa: E402  (round twenty-two's cost line)

from fair_paired import HEADER, halves, load_parts, load_rows, print_rows, same_games  # noqa: E402

HERE = Path(__file__).resolve().parent
SHIPPED = ROOT / "data" / "fair-games.parquet"
# classic/strict's shipped games until round twenty-three's candidate was adopted
ROUND_9 = ROOT / "data" / "experiments" / "round-9" / "fair-games.parquet"
CANDIDATE = HERE / "classic-strict-candidate.parquet"
ROUND_22 = (ROOT / "data" / "experiments" / "round-22" / "margin1-a.jsonl",
            ROOT / "data" / "experiments" / "round-22" / "margin1-b.jsonl")
EQUAL = (HERE / "equal-race.jsonl",)
EQUAL_COST = HERE / "cost-equal-race.jsonl"


def main() -> int:
    shipped = load_rows(ROUND_9, "classic", "strict", None)
    candidate = load_rows(CANDIDATE, "classic", "strict", None) if CANDIDATE.exists() else {}
    played = {s: r for s, r in candidate.items() if s < 2000}
    fresh = {s: r for s, r in candidate.items() if s >= 2000}
    print("classic/strict, the candidate against the agent as shipped:\n")
    print_rows(HEADER, [("round twenty-two's deals", played, shipped),
                        ("fresh deals", fresh, shipped),
                        ("all", candidate, shipped)])
    arm = load_parts(ROUND_22)
    both = sorted(set(arm) & set(candidate))
    alike = same_games(candidate, arm)
    print(f"\nthe candidate's games against round twenty-two's arm: {len(both)} deals "
          f"played by both, {alike} alike")
    if candidate:
        ms = sorted(x for r in candidate.values() for x in r["decision_cpu_ms"])
        p99 = ms[min(len(ms) - 1, math.ceil(0.99 * len(ms)) - 1)]  # nearest rank
        print(f"the candidate's decisions: {len(ms):,}, 99th percentile {p99 / 1000:.2f} CPU s, "
              f"worst {ms[-1] / 1000:.2f}")
    equal = load_parts(EQUAL)
    print("\nclassic/equal, the race from 8 orders against the agent as shipped:\n")
    print_rows(HEADER, halves(equal, load_rows(SHIPPED, "classic", "equal", None), 1000))
    if EQUAL_COST.exists():
        print()
        print("\n".join(cost_lines("classic/equal's race from 8 orders", EQUAL_COST)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
