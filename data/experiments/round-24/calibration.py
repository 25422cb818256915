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

from pathlib import Path

from scoundrel_solver.fair.value.calibration import calibration_report

ROOT = Path(__file__).resolve().parents[3]
ROUND_23 = ROOT / "data" / "experiments" / "round-23"
HELD_OUT = {"the agent's own games": ROOT / "data" / "value-decisions-eval.parquet",
            "games opened with random moves":
                ROOT / "data" / "value-decisions-explored-eval.parquet"}
CALIBRATIONS = {
    "round nine's agent's games": ROUND_23 / "shown-classic-strict-before.json",
    "its own games, the earlier agent's explored": ROUND_23 / "shown-classic-strict-adopted.json",
    "its own games, explored too":
        ROOT / "src" / "scoundrel_solver" / "fair" / "value" / "shown-classic-strict.json",
}


def main() -> None:
    print("| held-out games | calibration fitted on | games | every decision | >30 unseen "
          "| 13-30 | 12 or fewer | first decision: shown / won |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for what, path in HELD_OUT.items():
        for name, shown in CALIBRATIONS.items():
            report = calibration_report(path, bins=10, shown=shown)
            lines = report["calibrated"]["lines"]
            first = lines["first"]
            print(f"| {what} | {name} | {report['games']:,} | "
                  + " | ".join(f"{lines[p]['ece']:.2f}" for p in ("all", "open", "middle", "end"))
                  + f" | {100 * first['mean_shown']:.1f}% / {100 * first['won']:.1f}% |")


if __name__ == "__main__":
    main()
