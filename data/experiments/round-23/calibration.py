"""The chance shown by classic/strict's adopted agent, under the calibration fitted on the
earlier agent's games and under the one fitted again on its own (run from the
repository's root).

    python data/experiments/round-23/calibration.py

Both are measured on the adopted agent's held-out decisions
(``data/value-decisions-eval.parquet``, seeds 0-9999) and, apart, on its held-out games
opened with random moves (``data/value-decisions-explored-eval.parquet``): the expected
calibration error in points over every decision and per phase (more than 30 cards
unseen, 13-30, 12 or fewer), and the mean chance shown at the first decision against
the share of games won, as ``scoundrel-value calibration`` computes them.
"""

from __future__ import annotations

from pathlib import Path

from scoundrel_solver.fair.value.calibration import calibration_report

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
HELD_OUT = {"the agent's own games": ROOT / "data" / "value-decisions-eval.parquet",
            "games opened with random moves":
                ROOT / "data" / "value-decisions-explored-eval.parquet"}
CALIBRATIONS = {
    "fitted on the earlier agent's games": HERE / "shown-classic-strict-before.json",
    # the calibration the adoption shipped, until round twenty-four fitted it again
    "fitted again on its own games": HERE / "shown-classic-strict-adopted.json",
}


def print_table(calibrations: dict[str, Path], column: str = "calibration") -> None:
    """The table: one row per held-out file and calibration (``column`` heads the
    calibrations' names); round twenty-four's script prints its three with it."""
    print(f"| held-out games | {column} | games | every decision | >30 unseen | 13-30 "
          "| 12 or fewer | first decision: shown / won |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for what, path in HELD_OUT.items():
        for name, shown in calibrations.items():
            report = calibration_report(path, bins=10, shown=shown)
            lines = report["calibrated"]["lines"]
            first = lines["first"]
            print(f"| {what} | {name} | {report['games']:,} | "
                  + " | ".join(f"{lines[p]['ece']:.2f}" for p in ("all", "open", "middle", "end"))
                  + f" | {100 * first['mean_shown']:.1f}% / {100 * first['won']:.1f}% |")


def main() -> None:
    print_table(CALIBRATIONS)

if __name__ == "__main__":
    main()
