"""The games of a ``scoundrel-value data`` record as one arm of a paired A/B test.

    python experiments/value_games_arm.py train-classic-strict.jsonl --seeds 1003400:1003821 \
        --out shipped-train.jsonl

``scoundrel-value data`` records the agent's games with every decision (the
learned value's training data); when the agent that recorded them plays as the
one an arm compares with, its games are that arm, and need not be played
again. One JSON line per game of ``--seeds`` (and ``--variant``), as
``experiments/fair_ab.py`` writes them: ``seed``, ``won``, ``score``, ``cpu``
(the record's ``cpu_seconds``), ``decisions``, ``worst`` and ``over_1s`` (from
the decisions' ``cpu_ms``), and the record's ``agent_version``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from scoundrel_core.variants import get_variant
from scoundrel_solver.runs.seeds import parse_seed_range

SEED = re.compile(r'"seed":\s*(\d+)')


def arm_rows(path: Path, seeds: range, variant: str) -> list[dict[str, object]]:
    """The arm's rows of the games in ``path`` with a seed in ``seeds``, by seed."""
    rows: dict[int, dict[str, object]] = {}
    with path.open() as f:
        for line in f:
            found = SEED.search(line[:200])  # the seed comes first: parse only the games kept
            if found is None or int(found[1]) not in seeds:
                continue
            try:
                g = json.loads(line)
            except json.JSONDecodeError:
                continue  # a game cut short mid-write
            if g.get("variant") != variant:
                continue
            ms = [float(d["cpu_ms"]) / 1000 for d in g["decisions"]]
            rows[int(g["seed"])] = {
                "seed": int(g["seed"]), "won": bool(g["won"]), "score": int(g["score"]),
                "cpu": g["cpu_seconds"], "worst": round(max(ms, default=0.0), 3),
                "decisions": len(ms), "over_1s": sum(t > 1.0 for t in ms),
                "agent_version": g["agent_version"]}
    return [rows[s] for s in sorted(rows)]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("record", type=Path, help="games written by scoundrel-value data")
    p.add_argument("--seeds", required=True, help="A:B")
    p.add_argument("--variant", default="classic/strict")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    try:
        r = parse_seed_range(args.seeds)
        variant = str(get_variant(args.variant))
        rows = arm_rows(args.record, range(r.start, r.stop), variant)
    except (OSError, ValueError) as e:
        p.error(str(e))
    args.out.write_text("".join(json.dumps(row) + "\n" for row in rows))
    print(f"{len(rows)} games of {variant} -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
