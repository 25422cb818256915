"""How much of what is left the player knows card by card: the known bottom by phase.

    python data/experiments/round-25/bottom.py

Over every decision of the fair agent's held-out classic/strict games
(``data/value-decisions-eval.parquet``), by unseen cards: the decisions, the share with a
known bottom (cards fled, whose order the player knows), its mean length, and the share
where it is longer than the unseen cards (most of what is left is then known in order).
"""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq

DATA = Path(__file__).resolve().parents[3] / "data" / "value-decisions-eval.parquet"


def main() -> None:
    t = pq.read_table(DATA, columns=["unseen", "bottom"]).to_pandas()
    t["known"] = t["bottom"].map(len)
    print("| unseen cards | decisions | with a known bottom | its mean length | bottom longer "
          "than the unseen |")
    print("|---|---:|---:|---:|---:|")
    for name, lo, hi in (("more than 30", 31, 44), ("13-30", 13, 30), ("7-12", 7, 12),
                         ("6 or fewer", 0, 6)):
        d = t[t["unseen"].between(lo, hi)]
        print(f"| {name} | {len(d):,} | {100 * (d['known'] > 0).mean():.1f}% | "
              f"{d['known'].mean():.1f} | {100 * (d['known'] > d['unseen']).mean():.1f}% |")


if __name__ == "__main__":
    main()
