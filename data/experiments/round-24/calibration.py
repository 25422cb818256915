"""The chance shown by classic/strict's agent under three calibrations (run from the
repository's root).

    python data/experiments/round-24/calibration.py

- fitted on round nine's agent's games (``round-23/shown-classic-strict-before.json``);
- fitted on round twenty-three's candidate's 2,000 training games and the earlier agent's
  1,843 explored ones (``round-23/shown-classic-strict-adopted.json``, shipped with the
  adoption);
- fitted on the same 2,000 and the adopted agent's own explored training games, seeds
  1,000,000-1,002,399 (the shipped ``shown-classic-strict.json``).

Each is measured on the agent's held-out decisions (``data/value-decisions-eval.parquet``,
seeds 0-9999) and, apart, on its held-out games opened with random moves
(``data/value-decisions-explored-eval.parquet``), as round twenty-three's table: the
expected calibration error in points over every decision and per phase, and the mean
chance shown at the first decision against the share of games won.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
ROUND_23 = ROOT / "data" / "experiments" / "round-23"
sys.path.insert(0, str(ROUND_23))
from calibration import print_table  # noqa: E402  (round twenty-three's table, same held-out files)

CALIBRATIONS = {
    "round nine's agent's games": ROUND_23 / "shown-classic-strict-before.json",
    "its own games, the earlier agent's explored": ROUND_23 / "shown-classic-strict-adopted.json",
    "its own games, explored too":
        ROOT / "src" / "scoundrel_solver" / "fair" / "value" / "shown-classic-strict.json",
}


def main() -> None:
    print_table(CALIBRATIONS, "calibration fitted on")


if __name__ == "__main__":
    main()
