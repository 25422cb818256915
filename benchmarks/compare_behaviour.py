"""Record what the solvers do on fixed deals, to check a refactor changes nothing.

    python benchmarks/compare_behaviour.py record /tmp/before.json
    python benchmarks/compare_behaviour.py record /tmp/after.json
    python benchmarks/compare_behaviour.py compare /tmp/before.json /tmp/after.json

``record`` writes, for each seed of every variant (classic/easy/hard x
strict/equal): the exact solver's best score, line, node count and whether it
was proven, and the fair agent's whole game (it is deterministic: its line, the
exact flags and the score). ``--part solve`` or ``--part fair`` records one
half (two processes can then share the work); ``--flee``/``--rule`` pick
variants (several processes can then share the work; the file is rewritten
after each variant); ``compare`` accepts several files per side, comma
separated, and merges them. ``--seeds A:B`` (default 0:100) and ``--easy-seeds``
choose the deals. ``compare`` prints the counts compared and every difference,
and exits 1 if there is one. Timing is recorded but never compared: use
``speed`` for that (the first calls, which compile or load numba's cache, then
the median solve on classic, in wall and CPU seconds).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import scoundrel_core as sc
from scoundrel_solver import solve
from scoundrel_solver.fair import play_fair


def _seeds(text: str) -> range:
    start, _, stop = text.partition(":")
    return range(int(start), int(stop)) if stop else range(int(start))


def record(args: argparse.Namespace) -> None:
    out: dict[str, Any] = {}
    for flee in args.flee or sc.FLEE_RULES:
        seeds = _seeds(args.easy_seeds if flee == "easy" else args.seeds)
        for rule in args.rule or sc.WEAPON_RULES:
            name = f"{flee}/{rule}"
            for seed in seeds:
                entry: dict[str, Any] = {}
                if args.part in ("both", "solve"):
                    r = solve(seed, variant=flee, weapon_rule=rule)
                    entry["solve"] = {
                        "best": r.best_score, "line": " ".join(r.line), "nodes": r.nodes,
                        "proven": r.proven, "seconds": round(r.seconds, 4),
                    }
                if args.part in ("both", "fair"):
                    t0 = time.perf_counter()
                    g = play_fair(seed, variant=flee, weapon_rule=rule)
                    entry["fair"] = {
                        "line": g.line, "exact": "".join("1" if e else "0" for e in g.exact),
                        "score": g.score, "seconds": round(time.perf_counter() - t0, 4),
                    }
                out[f"{name}/{seed}"] = entry
            print(f"{name}: {len(seeds)} seeds", file=sys.stderr, flush=True)
            Path(args.out).write_text(json.dumps(out, indent=1, sort_keys=True))


def _load(paths: list[str]) -> dict[str, dict[str, Any]]:
    merged: dict[str, dict[str, Any]] = {}
    for p in paths:
        for key, entry in json.loads(Path(p).read_text()).items():
            merged.setdefault(key, {}).update(entry)
    return merged


def compare(args: argparse.Namespace) -> int:
    before, after = _load(args.before.split(",")), _load(args.after.split(","))
    fields = {"solve": ("best", "line", "nodes", "proven"), "fair": ("line", "exact", "score")}
    counts: dict[str, int] = {}
    diffs: list[str] = []
    if set(before) != set(after):
        diffs.append(f"different deals: {sorted(set(before) ^ set(after))[:10]}")
    for key in sorted(set(before) & set(after)):
        for part, names in fields.items():
            if part not in before[key] or part not in after[key]:
                continue
            counts[part] = counts.get(part, 0) + 1
            for name in names:
                b, a = before[key][part][name], after[key][part][name]
                if b != a:
                    diffs.append(f"{key} {part}.{name}: {b!r} -> {a!r}")
    for part, n in counts.items():
        print(f"{part}: {n} deals compared on {', '.join(fields[part])}")
    for d in diffs:
        print("DIFF", d)
    print("identical" if not diffs else f"{len(diffs)} differences")
    return 1 if diffs else 0


def speed(args: argparse.Namespace) -> None:
    """First calls (compiling, or loading numba's cache), then solves timed one by
    one, in wall and CPU seconds (CPU time is steadier on a shared machine)."""
    w0, c0 = time.perf_counter(), time.process_time()
    solve(sc.new_game(deck="5C 9D 3H QS 2S 7H", partial=True))
    play_fair(sc.new_game(deck="5H 2C 3D 4S 6C", partial=True))
    first = (time.perf_counter() - w0, time.process_time() - c0)
    walls, cpus = [], []
    for seed in _seeds(args.seeds):
        w, c = time.perf_counter(), time.process_time()
        solve(seed)
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    print(json.dumps({
        "first_calls_wall_s": round(first[0], 3), "first_calls_cpu_s": round(first[1], 3),
        "median_solve_wall_s": round(statistics.median(walls), 5),
        "median_solve_cpu_s": round(statistics.median(cpus), 5),
        "total_solve_cpu_s": round(sum(cpus), 3),
    }))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("record")
    r.add_argument("out")
    r.add_argument("--seeds", default="0:100")
    r.add_argument("--easy-seeds", default="0:100")
    r.add_argument("--part", choices=("both", "solve", "fair"), default="both")
    r.add_argument("--flee", action="append", choices=sc.FLEE_RULES, help="only these")
    r.add_argument("--rule", action="append", choices=sc.WEAPON_RULES, help="only these")
    c = sub.add_parser("compare")
    c.add_argument("before", help="file(s), comma separated")
    c.add_argument("after", help="file(s), comma separated")
    s = sub.add_parser("speed")
    s.add_argument("--seeds", default="0:100")
    args = p.parse_args(argv)
    if args.command == "record":
        record(args)
    elif args.command == "compare":
        return compare(args)
    else:
        speed(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
