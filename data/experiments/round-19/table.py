"""The paired table of round nineteen, from the arm's files (run from the repository's root).

    python data/experiments/round-19/table.py

The first lines compare the shipped win model's (both variants' leaves read the
``classic/strict`` model) and each fitted net's mean chance at the first room of the
recorded games with the rate at which those games were won; the first table says how
well the shown chance at the agent's own rooms foretells the outcome, by phase. The
second pairs classic/strict's agent with the win net of ``leaf-net.json`` against the
agent as shipped on the same deals (``experiments/fair_paired.py``'s figures): the
shipped agent's games are round nine's (``data/experiments/round-9/fair-games.parquet``,
then ``data/fair-games.parquet``'s classic/strict rows), whose CPU
seconds were recorded at another time (no cost check was run side by side). The last
pairs hard/strict's agent with its own net against ``data/fair-games.parquet``'s
hard/strict rows.
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

from scoundrel_solver.fair import leaf

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "experiments"))
from fair_paired import HEADER, halves, load_parts, load_rows, print_rows  # noqa: E402

HERE = Path(__file__).resolve().parent
TARGETS = (HERE / "targets-a.jsonl", HERE / "targets-b.jsonl")
MODEL = HERE / "leaf-net.json"
SHIPPED = ROOT / "data" / "fair-games.parquet"
# classic/strict's shipped games until round twenty-three's candidate was adopted
ROUND_9 = ROOT / "data" / "experiments" / "round-9" / "fair-games.parquet"
ARM = (HERE / "net-a.jsonl", HERE / "net-b.jsonl")
HARD = (HERE / "hard-net-a.jsonl", HERE / "hard-net-b.jsonl")
HARD_TARGETS = (HERE / "hard-targets-a.jsonl", HERE / "hard-targets-b.jsonl")
HARD_MODEL = HERE / "hard-leaf-net.json"


def _training_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "train_fair_leaf", ROOT / "scripts" / "train_fair_leaf.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def first_room_chances(tr: ModuleType, pos: dict[str, np.ndarray], variant: str,
                       model: Path, name: str) -> None:
    """The shipped win model's and the fitted net's mean chance at the first room of the
    recorded games of ``variant`` (``pos``) against the rate at which they were won."""
    first = (pos["won"] >= 0) & (pos["unseen"] == 40)
    pos = {k: v[first] for k, v in pos.items()}
    feats, inputs = tr.position_features(pos, variant.split("/")[1])
    shipped = np.array(leaf.shipped_models()["classic/strict"])
    net = leaf.win_model_from(model, variant, name)
    chances = {"shipped": 1 / (1 + np.exp(-feats @ shipped)),
               "net": tr.net_win_chances(net[len(leaf.FEATURES):], pos["counts"], inputs)}
    seeds = pos["seed"]
    line = (f"{variant}, {len(seeds)} games (seeds {seeds.min()}-{seeds.max()}): won "
            f"{100 * statistics.fmean(pos['won']):.1f}%; mean chance at the first room:")
    for key, p in chances.items():
        line += f" {key} {100 * float(p.mean()):.1f}%"
    print(line)


def shown_by_phase(tr: ModuleType, pos: dict[str, np.ndarray]) -> None:
    """How well the shown chance of the agent's own rooms (of ``pos``) foretells the
    outcome, by the cards unseen when the room was dealt: its cross-entropy against the
    outcome and the constant model's (the rate of those rooms won)."""
    own = pos["won"] >= 0
    print("| classic/strict rooms dealt with | rooms | won | cross-entropy: shown chance "
          "| constant |")
    print("|---|---:|---:|---:|---:|")
    for lo, hi in ((31, 40), (25, 30), (12, 24)):
        m = own & (pos["unseen"] >= lo) & (pos["unseen"] <= hi)
        won, rate = pos["won"][m], float(pos["won"][m].mean())
        print(f"| {lo}-{hi} unseen | {int(m.sum()):,} | {100 * rate:.1f}% "
              f"| {tr.cross_entropy(pos['win'][m], won):.3f} "
              f"| {tr.cross_entropy(np.full(len(won), rate), won):.3f} |")
    print()


def main() -> int:
    tr = _training_script()
    classic = tr.target_positions(list(TARGETS), "classic/strict")
    first_room_chances(tr, classic, "classic/strict", MODEL, "classic/strict-net")
    first_room_chances(tr, tr.target_positions(list(HARD_TARGETS), "hard/strict"),
                       "hard/strict", HARD_MODEL, "hard/strict-net")
    print()
    shown_by_phase(tr, classic)
    arm = load_parts(ARM)
    shipped = load_rows(ROUND_9, "classic", "strict", None)
    print_rows(HEADER, halves(arm, shipped, 1000))
    print()
    print_rows(HEADER.replace("| deals |", "| hard/strict |"),
               [("evaluation", load_parts(HARD), load_rows(SHIPPED, "hard", "strict", None))])
    return 0

if __name__ == "__main__":
    sys.exit(main())
