"""The fair agents' regret against the exact fair optimum, on reduced decks.

    python scripts/fair_regret.py                       # the table of docs/fair.md (6, 7, 8 cards)
    python scripts/fair_regret.py --sizes 6,8 --decks 3
    python scripts/fair_regret.py --agent fair --weights leaf.json   # a new leaf
    python scripts/fair_regret.py --agent my_pkg.my_module:make_agent

For each deck size, ``--decks`` reduced decks are drawn from the classic deck
with its mix of kinds kept (``classic_mix``: 26/44 monsters rounded, the rest
split between weapons and potions, weapons taking the odd card; each kind's
cards drawn uniformly without replacement) by ``random.Random(seed * 1000 +
size)``. Each deck is shuffled uniformly (the first room included) and solved
exactly (``scoundrel_solver.fair.optimum``): the optimal expected final
score, the optimal win probability, the win probability of the
score-optimal policy, and each agent's exact expected score and win
probability. The table averages the decks of a size (each deck weighs the
same); regret = optimal minus agent.

Agents (``--agent``, repeatable; default: ``DEFAULT_AGENTS``):
  fair[:option=value,...]   FairAgent with these options, e.g. fair:max_depth=0;
                            --weights FILE.json (leaf weights) goes to every fair agent
  greedy | random           the baselines
  package.module:factory    any importable callable returning an object with
                            reset(seed) and choose(info) -> (action, exact)

Writes ``--csv`` (the table) and ``--decks-csv`` (one row per deck and agent,
rewritten after every deck, so a stopped run keeps the decks done; with
``--resume`` a run keeps those rows and plays only what is missing) and
prints the table as Markdown. Variants: classic or hard (easy lets a room be
fled forever, which the exact walk refuses).
"""

from __future__ import annotations

import argparse
import csv
import importlib
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from tqdm import tqdm

import scoundrel_core as sc
from scoundrel_solver.fair.agent import FairAgent
from scoundrel_solver.fair.api import FAIR_OPTIONS, make_agent
from scoundrel_solver.fair.config import LeafWeights, configs_with
from scoundrel_solver.fair.optimum import agent_value, draw_deck, fair_optimum
from scoundrel_solver.fair.protocol import Agent
from scoundrel_solver.provenance import csv_header, provenance, script_provenance

# the default agent plays these small decks as its endgame (PIMC, at most 24 unseen
# cards under classic/strict); endgame=0 is its search alone, at full and cut depths
DEFAULT_AGENTS = [
    "fair", "fair:endgame=0", "fair:endgame=0,max_depth=1", "fair:endgame=0,max_depth=0",
    "greedy",
]

DECK_FIELDS = [
    "deck_size", "deck", "agent", "optimal_score", "agent_score", "optimal_win",
    "agent_win", "score_policy_win", "decisions", "exact_decisions", "optimum_seconds",
    "agent_seconds",
]
TABLE_FIELDS = [
    "deck_size", "decks", "agent", "optimal_score", "agent_score", "regret", "optimal_win",
    "agent_win", "win_regret", "score_policy_win", "exact_share", "agent_seconds",
]


class BadOption(Exception):
    """A command-line value that cannot be used (the message names it)."""


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _weighted_fair(spec: str, opts: dict[str, Any], weights: dict[str, float]
                   ) -> Callable[[], Agent]:
    """The fair agent of ``opts`` (``make_agent``'s names) with other leaf weights: every
    variant's config changed the same way, ``win_bonus`` included."""
    weights = dict(weights)
    try:
        unknown = sorted(set(opts) - set(FAIR_OPTIONS))
        if unknown:
            raise sc.ScoundrelError(f"unknown options {unknown}; known: {', '.join(FAIR_OPTIONS)}")
        changes: dict[str, Any] = {FAIR_OPTIONS[k]: v for k, v in opts.items()}
        if "win_bonus" in weights:
            changes["win_bonus"] = float(weights.pop("win_bonus"))
        if weights:
            changes["leaf"] = LeafWeights(**{
                k: int(v) if k == "kills" else float(v) for k, v in weights.items()})
        configs = configs_with(**changes)
    except (TypeError, sc.ScoundrelError) as err:
        raise BadOption(f"agent {spec!r}: {err}") from None
    return lambda: FairAgent(configs)


def agent_factory(spec: str, weights: dict[str, float] | None) -> Callable[[], Agent]:
    """A maker of fresh agents for one ``--agent`` spec (see the module docstring)."""
    name, _, rest = spec.partition(":")
    if name in ("fair", "greedy", "random"):
        opts: dict[str, Any] = {}
        for item in filter(None, rest.split(",")):
            key, eq, value = item.partition("=")
            if not eq:
                raise BadOption(f"agent {spec!r}: option {item!r} is not name=value")
            opts[key.strip()] = _number(value.strip())
        if name == "fair" and weights is not None:
            return _weighted_fair(spec, opts, weights)
        try:
            make_agent(name, **opts)
        except (TypeError, sc.ScoundrelError) as err:
            raise BadOption(f"agent {spec!r}: {err}") from None
        return lambda: make_agent(name, **opts)
    if not rest:
        raise BadOption(
            f"unknown agent {spec!r}; use fair[:opts], greedy, random or module:factory"
        )
    try:
        factory = getattr(importlib.import_module(name), rest)
    except (ImportError, AttributeError) as err:
        raise BadOption(f"agent {spec!r}: {err}") from None
    if not callable(factory):
        raise BadOption(f"agent {spec!r}: {rest} is not callable")
    return factory  # type: ignore[no-any-return]


@dataclass
class Row:
    """One deck played by one agent."""

    size: int
    deck: str
    agent: str
    optimal_score: float
    agent_score: float
    optimal_win: float
    agent_win: float
    score_policy_win: float
    decisions: int
    exact_decisions: int
    optimum_seconds: float
    agent_seconds: float

    def csv(self) -> list[object]:
        return [
            self.size, self.deck, self.agent, self.optimal_score, self.agent_score,
            self.optimal_win, self.agent_win, self.score_policy_win, self.decisions,
            self.exact_decisions, round(self.optimum_seconds, 3), round(self.agent_seconds, 3),
        ]


class TableRow(NamedTuple):
    """One size and agent, averaged over the decks (the fields of ``TABLE_FIELDS``)."""

    size: int
    decks: int
    agent: str
    optimal_score: float
    agent_score: float
    regret: float
    optimal_win: float
    agent_win: float
    win_regret: float
    score_policy_win: float
    exact_share: float
    agent_seconds: float


def table(rows: list[Row]) -> list[TableRow]:
    """Per size and agent: means over the decks (each deck weighs the same)."""
    out: list[TableRow] = []
    keys = sorted(dict.fromkeys((r.size, r.agent) for r in rows), key=lambda k: k[0])
    for size, agent in keys:
        g = [r for r in rows if (r.size, r.agent) == (size, agent)]
        n = len(g)

        def mean(f: Callable[[Row], float], g: list[Row] = g, n: int = n) -> float:
            return sum(f(r) for r in g) / n

        out.append(TableRow(
            size, n, agent,
            mean(lambda r: r.optimal_score), mean(lambda r: r.agent_score),
            mean(lambda r: r.optimal_score - r.agent_score),
            mean(lambda r: r.optimal_win), mean(lambda r: r.agent_win),
            mean(lambda r: r.optimal_win - r.agent_win),
            mean(lambda r: r.score_policy_win),
            sum(r.exact_decisions for r in g) / max(1, sum(r.decisions for r in g)),
            mean(lambda r: r.agent_seconds),
        ))
    return out


def markdown(rows: list[TableRow]) -> str:
    head = [
        "cards", "decks", "agent", "optimal E[score]", "agent E[score]", "regret",
        "optimal P(win)", "agent P(win)", "P(win) lost", "P(win) of score-optimal",
        "exact decisions", "s/deck",
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [
            str(r.size), str(r.decks), f"`{r.agent}`", f"{r.optimal_score:.3f}",
            f"{r.agent_score:.3f}", f"{r.regret:.3f}", f"{100 * r.optimal_win:.2f}%",
            f"{100 * r.agent_win:.2f}%", f"{100 * r.win_regret:.2f}",
            f"{100 * r.score_policy_win:.2f}%", f"{100 * r.exact_share:.0f}%",
            f"{r.agent_seconds:.1f}",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_csv(path: Path, fields: list[str], rows: Sequence[Sequence[object]],
              stamp: dict[str, str] | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with tmp.open("w", newline="") as f:
        f.write(csv_header(stamp or provenance()))  # "# key: value" lines: command, commit, date
        w = csv.writer(f)
        w.writerow(fields)
        w.writerows(rows)
    tmp.replace(path)


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise BadOption(f"--sizes {text!r} is not a comma-separated list of numbers") from None
    if not sizes or any(not 4 <= n <= sc.DECK_SIZE for n in sizes):
        raise BadOption(f"--sizes {text!r}: each size must be 4..{sc.DECK_SIZE}")
    return sizes


def _deck_counts(text: str, n_sizes: int) -> list[int]:
    try:
        counts = [int(x) for x in text.split(",")]
    except ValueError:
        raise BadOption(f"--decks {text!r} is not a number or a comma-separated list") from None
    if len(counts) == 1:
        counts *= n_sizes
    if len(counts) != n_sizes or min(counts) < 1:
        raise BadOption(f"--decks {text!r}: give one count >= 1, or one per size")
    return counts


def _weights(path: Path | None) -> dict[str, float] | None:
    if path is None:
        return None
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as err:
        raise BadOption(f"--weights {str(path)!r}: {err}") from None
    if not isinstance(data, dict):
        raise BadOption(f"--weights {str(path)!r} is not a JSON object of leaf weights")
    return data


def read_rows(path: Path) -> list[Row]:
    """The deck rows of an earlier run (``--resume``)."""
    try:
        with path.open(newline="") as f:
            found = list(csv.DictReader(line for line in f if not line.startswith("#")))
        return [
            Row(
                int(d["deck_size"]), d["deck"], d["agent"], float(d["optimal_score"]),
                float(d["agent_score"]), float(d["optimal_win"]), float(d["agent_win"]),
                float(d["score_policy_win"]), int(d["decisions"]), int(d["exact_decisions"]),
                float(d["optimum_seconds"]), float(d["agent_seconds"]),
            )
            for d in found
        ]
    except FileNotFoundError:
        return []
    except (OSError, KeyError, ValueError, TypeError) as err:
        raise BadOption(f"--resume: cannot read {str(path)!r}: {err!r}") from None


def run(args: argparse.Namespace, rows: list[Row]) -> None:
    sizes = _sizes(args.sizes)
    counts = _deck_counts(args.decks, len(sizes))
    weights = _weights(args.weights)
    specs = args.agent or DEFAULT_AGENTS
    makers = [(spec, agent_factory(spec, weights)) for spec in specs]
    variant = sc.get_variant(args.variant)
    if variant.may_flee_twice:
        raise BadOption(f"--variant {args.variant!r}: easy has endless flees; use classic or hard")
    if args.resume:
        rows += read_rows(args.decks_csv)
    done = {(r.size, r.deck, r.agent) for r in rows}
    quiet = args.quiet or not sys.stderr.isatty()
    bar = tqdm(total=sum(counts) * (1 + len(makers)), disable=quiet, file=sys.stderr)
    for size, count in zip(sizes, counts, strict=True):
        rng = random.Random(args.seed * 1000 + size)
        for _ in range(count):
            deck = draw_deck(size, rng)
            text = sc.format_deck(deck)
            todo = [(spec, make) for spec, make in makers if (size, text, spec) not in done]
            if not todo:
                bar.update(1 + len(makers))
                continue
            bar.set_description(f"{size} cards: optimum")
            t = time.perf_counter()
            best = fair_optimum(deck, str(variant))
            opt_s = time.perf_counter() - t
            bar.update()
            bar.update(len(makers) - len(todo))
            for spec, make in todo:
                bar.set_description(f"{size} cards: {spec}")
                t = time.perf_counter()
                got = agent_value(make(), deck, str(variant))
                rows.append(Row(
                    size, text, spec, best.score, got.score, best.win, got.win,
                    best.score_policy_win, got.decisions, got.exact, opt_s,
                    time.perf_counter() - t,
                ))
                bar.update()
            write_csv(args.decks_csv, DECK_FIELDS, [r.csv() for r in rows], args.stamp)
    bar.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--sizes", default="6,7,8", help="deck sizes, comma-separated (default 6,7,8)")
    p.add_argument("--decks", default="10,6,10",
                   help="decks per size: one number, or one per size (default 10,6,10)")
    p.add_argument("--seed", type=int, default=0, help="deck seed (default 0)")
    p.add_argument("--variant", default="classic", help="classic or hard, /strict or /equal")
    p.add_argument("--agent", action="append", help="agent spec, repeatable (see above)")
    p.add_argument("--weights", type=Path, help="JSON leaf weights for every fair agent")
    p.add_argument("--csv", type=Path, default=Path("data/fair-regret.csv"))
    p.add_argument("--decks-csv", type=Path, default=Path("data/fair-regret-decks.csv"))
    p.add_argument("--resume", action="store_true",
                   help="keep the rows of --decks-csv and play only the missing ones")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    args.stamp = script_provenance(__file__, argv)
    rows: list[Row] = []
    t = time.perf_counter()
    try:
        run(args, rows)
    except (BadOption, sc.ScoundrelError) as err:
        print(f"fair_regret: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        done = len({(r.size, r.deck) for r in rows})
        print(f"fair_regret: interrupted; {done} decks saved in {args.decks_csv}", file=sys.stderr)
        return 130
    summary = table(rows)
    write_csv(args.csv, TABLE_FIELDS, summary, args.stamp)
    print(markdown(summary))
    print(f"\n{len(rows)} deck-agent rows in {time.perf_counter() - t:.0f} s; "
          f"table -> {args.csv}, decks -> {args.decks_csv}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
