"""docs/value.md's tables, from the decisions and the model in data/.

    python scripts/value_tables.py           # rewrite both blocks
    python scripts/value_tables.py --check   # exit 1 if either is stale

Between ``<!-- calibration-table: start -->`` and ``<!-- calibration-table: end -->``:
``scoundrel-value calibration data/value-decisions-eval.parquet`` (the shown
chances of the held-out games against their outcomes). Between ``<!-- model-table:
start -->`` and ``<!-- model-table: end -->``: the same with ``--model
data/value-model.json`` (the learned value on the same decisions), and the model's
record of its fit. ``tests/test_value_tables.py`` fails when a block differs from
what this script writes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scoundrel_solver.fair.value.calibration import calibration_report, format_report

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "value.md"
EVAL = ROOT / "data" / "value-decisions-eval.parquet"
MODEL = ROOT / "data" / "value-model.json"


def blocks() -> dict[str, str]:
    """The text of each block, by its marker's name."""
    shown = calibration_report(EVAL, bins=10)
    shown["file"] = str(EVAL.relative_to(ROOT))  # the page names it from the repository
    out = {"calibration-table": "\n".join([
        "As `scoundrel-value calibration data/value-decisions-eval.parquet` prints it:",
        "", format_report(shown)])}
    if MODEL.exists():
        both = calibration_report(EVAL, bins=10, model=MODEL)
        both["file"] = shown["file"]
        from scoundrel_solver.fair.value.model import load_model

        record = load_model(MODEL).fit
        out["model-table"] = "\n".join([
            "The model of `data/value-model.json`, fitted by "
            f"`{record.get('command', '?')}` on {record['decisions']:,} decisions of "
            f"{record['games']:,} games (seeds {record['seeds']}, commit "
            f"{record.get('commit', '?')}), on the same held-out decisions, as "
            "`scoundrel-value calibration data/value-decisions-eval.parquet --model "
            "data/value-model.json` prints it (\"shown\": today's numbers; \"learned\": "
            "the model's):", "", format_report(both)])
    return out


def rewrite(text: str, name: str, body: str) -> str:
    start, end = f"<!-- {name}: start -->", f"<!-- {name}: end -->"
    head, rest = text.split(start)
    _, tail = rest.split(end)
    return f"{head}{start}\n{body}\n{end}{tail}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--check", action="store_true")
    args = p.parse_args(argv)
    text = PAGE.read_text()
    new = text
    for name, body in blocks().items():
        new = rewrite(new, name, body)
    if args.check:
        if new != text:
            print(f"{PAGE} is stale: run python scripts/value_tables.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(new)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
