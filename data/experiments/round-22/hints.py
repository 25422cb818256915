"""What a hint costs with the race: every decision's values (``FairAgent.evaluate``, what
a hint shows) timed under the agent as shipped and under the round's candidate (the race
whose tie-breaking scores race too), side by side (run from the repository's root).

    python data/experiments/round-22/hints.py [--seeds 4000:4040]

Each deal of classic/strict is played by the agent as shipped; at every decision of two
or more actions both agents value the position (a fresh agent per game, as a session
has one), in turn, the one that goes first alternating from deal to deal, and the CPU
seconds of each are appended to ``hints.jsonl`` (``arm``, ``seed``, ``unseen``,
``cpu``; a rerun skips the deals done). It prints each arm's median, 99th percentile
and worst over every decision and over the endgame's (24 or fewer cards unseen).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import scoundrel_core as sc
from scoundrel_core.info import InfoState, observe
from scoundrel_solver.fair.agent import FairAgent
from scoundrel_solver.fair.config import configs_with
from scoundrel_solver.runs.seeds import parse_seed_range

OUT = Path(__file__).resolve().parent / "hints.jsonl"
ENDGAME = 24


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def deal(seed: int) -> list[dict[str, object]]:
    arms = {"shipped": FairAgent(), "race": FairAgent(configs_with(
        endgame_cap=32, endgame_scored=32, endgame_score_margin=1.0))}
    names = list(arms) if seed % 2 == 0 else list(arms)[::-1]
    player = FairAgent()
    s = sc.new_game(seed=seed)
    info, rows = InfoState.initial(s), []
    while not s.is_over:
        if len(info.legal_actions()) > 1:
            for name in names:
                c0 = time.process_time()
                arms[name].evaluate(info)
                rows.append({"arm": name, "seed": seed, "unseen": len(info.unseen),
                             "cpu": round(time.process_time() - c0, 4)})
        a = player.choose(info)[0]
        s2 = sc.apply(s, a)
        info, s = observe(info, a, s2), s2
    return rows


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", default="4000:4040")
    args = p.parse_args()
    seeds = parse_seed_range(args.seeds)
    done = ({json.loads(line)["seed"] for line in OUT.read_text().splitlines()}
            if OUT.exists() else set())
    deal(10**6)  # compile and load before the clock
    try:
        with OUT.open("a") as f:
            for seed in seeds:
                if seed not in done:
                    f.write("".join(json.dumps(r) + "\n" for r in deal(seed)))
                    f.flush()
    except KeyboardInterrupt:
        return 130
    rows = [json.loads(line) for line in OUT.read_text().splitlines()]
    for arm in ("shipped", "race"):
        for where, keep in (("every decision", lambda u: True),
                            ("the endgame's", lambda u: 0 < u <= ENDGAME)):
            cpu = [r["cpu"] for r in rows if r["arm"] == arm and keep(r["unseen"])]
            print(f"{arm}, {where} ({len(cpu)}): CPU s a hint, median "
                  f"{percentile(cpu, 0.5):.3f}, p99 {percentile(cpu, 0.99):.3f}, "
                  f"worst {max(cpu):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
