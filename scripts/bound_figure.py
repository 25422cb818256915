"""The fair ceiling in pictures: per variant, what the data says a fair player can win.

    python scripts/bound_figure.py           # write the figures and the README's line
    python scripts/bound_figure.py --check   # exit 1 if the README's line is stale

For classic/strict and hard/strict, one figure each (``docs/img/bound-VARIANT.png``,
linked from docs/bound.md) and one line of the README's findings, between
``<!-- bound-line: start -->`` and ``<!-- bound-line: end -->``, all from ``data/``:

- **the perfect-information share** (``data/census-summary.json``): the deals won
  with the dungeon seen, with its 95% Wilson interval. It is also the bound with
  ``V = 0``, so it is a proven ceiling on every fair player;
- **the penalised bounds** (the rows of ``scoundrel-bound --out`` in
  ``data/bound-*.jsonl``): each bound's mean of the terms and its one-sided 95%
  upper limit;
- **the best proven fair ceiling**: of all these, the lowest one-sided 95% upper
  limit (for the perfect-information share, the one-sided Wilson limit);
- **the fair agent** (``data/fair-games.parquet``): its win rate, 95% Wilson;
- **the k-step floor** (``data/bound-floor.jsonl``, ``scripts/bound_floor.py``): the
  win rate of a player fair until the k-th chance step and then shown the dungeon,
  95% Wilson. No ``V`` brings a bound that charges only the first k steps below the
  best such player, so this is how low such a bound could ever go, at most.

``tests/test_bound_figure.py`` checks the README's line against this script.
"""

from __future__ import annotations

import argparse
import json
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from readme_findings import refresh, rewrite
from scoundrel_solver.bound.rows import BoundSummary, read_bound_rows, summarize_bound
from scoundrel_solver.runs.summary import wilson

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
IMG = ROOT / "docs" / "img"
README = ROOT / "README.md"
VARIANTS = (("classic", "strict"), ("hard", "strict"))
START, END = "<!-- bound-line: start -->", "<!-- bound-line: end -->"
"""The README's bound line lies between these markers (``readme_findings.rewrite``)."""
Z_ONE_SIDED = statistics.NormalDist().inv_cdf(0.95)


@dataclass(frozen=True)
class Share:
    """A share of deals with its 95% interval (two-sided) and one-sided 95% upper limit."""

    share: float
    low: float
    high: float
    upper: float
    n: int


def share_of(wins: int, n: int) -> Share:
    lo, hi = wilson(wins, n)
    return Share(wins / n, lo, hi, wilson(wins, n, Z_ONE_SIDED)[1], n)


@dataclass(frozen=True)
class Ceiling:
    """One variant's numbers: the perfect-information share, the penalised bounds, the
    best proven ceiling, the fair agent and the k-step floors."""

    variant: str
    perfect: Share
    bounds: list[BoundSummary]
    agent: Share
    agent_seeds: tuple[int, int]
    floors: dict[int, Share]

    @property
    def ceiling(self) -> tuple[str, float, float]:
        """The lowest proven ceiling: (what it is, its value, its one-sided 95% upper)."""
        best = ("perfect", self.perfect.share, self.perfect.upper)
        for b in self.bounds:
            if b.upper is not None and b.upper < best[2]:
                best = (f"V = {b.value}, {_steps(b.steps)}", b.mean, b.upper)
        return best

    @property
    def published(self) -> BoundSummary | None:
        """The penalised bound (V other than zero) over the most deals."""
        charged = [b for b in self.bounds if b.value != "zero"]
        return max(charged, key=lambda b: (b.deals, -b.mean), default=None)


def _fair_games(path: Path) -> dict[str, tuple[int, int, int, int]]:
    """Per ``variant/rule``: (wins, games, first seed, last seed) of the fair agent."""
    import pyarrow.parquet as pq

    t = pq.read_table(path, columns=["variant", "weapon_rule", "seed", "won"]).to_pydict()
    out: dict[str, list[int]] = {}
    for v, r, seed, won in zip(t["variant"], t["weapon_rule"], t["seed"], t["won"],
                               strict=True):
        acc = out.setdefault(f"{v}/{r}", [0, 0, seed, seed])
        acc[0] += bool(won)
        acc[1] += 1
        acc[2], acc[3] = min(acc[2], seed), max(acc[3], seed)
    return {k: (a[0], a[1], a[2], a[3]) for k, a in out.items()}


def _floors(path: Path) -> dict[str, dict[int, Share]]:
    """Per ``variant/rule`` and ``k``: the player fair for ``k`` chance steps, then seeing."""
    counts: dict[str, dict[int, list[int]]] = {}
    seen: set[tuple[str, int]] = set()
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        key = f"{row['variant']}/{row['weapon_rule']}"
        if (key, row["seed"]) in seen:  # a seed counted once
            continue
        seen.add((key, row["seed"]))
        for k, won in row["fair_then_seen"].items():
            acc = counts.setdefault(key, {}).setdefault(int(k), [0, 0])
            acc[0] += bool(won)
            acc[1] += 1
    return {key: {k: share_of(w, n) for k, (w, n) in sorted(ks.items())}
            for key, ks in counts.items()}


def ceilings(data: Path = DATA) -> list[Ceiling]:
    """Every variant's numbers, from the files in ``data``."""
    census = {f"{s['variant']}/{s['weapon_rule']}": s
              for s in json.loads((data / "census-summary.json").read_text())}
    fair = _fair_games(data / "fair-games.parquet")
    floors = _floors(data / "bound-floor.jsonl")
    # each file summarised alone: a run and a measurement of the same settings stay apart
    summaries = [s for f in sorted(data.glob("bound-*.jsonl")) if f.name != "bound-floor.jsonl"
                 for s in summarize_bound(read_bound_rows(f))]
    out = []
    for v, r in VARIANTS:
        key = f"{v}/{r}"
        c = census[key]
        wins, games, first, last = fair[key]
        out.append(Ceiling(
            variant=key, perfect=share_of(int(c["winnable"]), int(c["deals"])),
            bounds=[b for b in summaries if (b.variant, b.weapon_rule) == (v, r)],
            agent=share_of(wins, games), agent_seeds=(first, last),
            floors=floors.get(key, {})))
    return out


def _pct(x: float, d: int = 2) -> str:
    return f"{100 * x:.{d}f}%"


def _steps(k: int) -> str:
    return f"{k} chance step" + ("" if k == 1 else "s")


def sentence(cs: list[Ceiling]) -> str:
    """The README's line: the best proven ceiling against the agent, per variant."""
    def charged(b: BoundSummary) -> str:
        return f"V = {b.value}, {_steps(b.steps)} charged"

    def part(c: Ceiling, first: bool) -> str:
        what, value, upper = c.ceiling
        where = f"{c.variant} deals" if first else c.variant
        agent = "the fair agent's " if first else ""
        text = f"{_pct(value)} of {where} (at most {_pct(upper)}, one-sided 95%"
        text += ")" if what == "perfect" else f"; {what})"
        return f"{text} against {agent}{_pct(c.agent.share, 1)}"

    parts = "; ".join(part(c, i == 0) for i, c in enumerate(cs))
    one = [c.floors[1] for c in cs if 1 in c.floors]
    floor = (f", and a bound charging only the first chance step cannot go below about "
             f"{' and '.join(_pct(f.share, 1) for f in one)}: what a player fair until the "
             "first refill and then shown the dungeon wins") if one else ""
    if all(c.ceiling[0] == "perfect" for c in cs):
        looser = [b for b in (c.published for c in cs) if b is not None]
        if len({charged(b) for b in looser}) == 1:
            penalised = f"{' and '.join(_pct(b.mean) for b in looser)}, {charged(looser[0])}"
        else:
            penalised = " and ".join(f"{_pct(b.mean)} with {charged(b)}" for b in looser)
        head = ("- **the fair ceiling**: the best proven ceiling on any fair player is still "
                f"the perfect-information share (the bound with `V = 0`): {parts}. The "
                f"penalised bounds are looser today ({penalised})")
    else:
        shares = " and ".join(_pct(c.perfect.share) for c in cs)
        head = (f"- **the fair ceiling**: no fair player wins more than {parts}, below the "
                f"perfect-information share ({shares})")
    return (f"{head}{floor} ([docs/bound.md](docs/bound.md), "
            "`python scripts/bound_figure.py`).")


def draw(c: Ceiling) -> Any:
    """The figure of one variant: every number with its interval, on one axis of win rates."""
    import matplotlib.pyplot as plt

    rows: list[tuple[str, float, float, float, str]] = []  # label, value, low, high, colour
    p_share = c.perfect.share  # a penalised bound above it is looser: grey
    widest: dict[tuple[str, int], BoundSummary] = {}  # per V and steps, the most deals
    for b in c.bounds:
        if b.value != "zero" and b.upper is not None:
            got = widest.get((b.value, b.steps))
            if got is None or b.deals > got.deals:
                widest[(b.value, b.steps)] = b
    for b in sorted(widest.values(), key=lambda b: -b.mean):
        rows.append((f"penalised bound, V = {b.value}, {_steps(b.steps)}\n"
                     f"{b.deals:,} deals, one-sided 95%"
                     + (": looser" if b.mean >= p_share else ""), b.mean, b.mean,
                     b.mean if b.upper is None else b.upper,
                     "tab:gray" if b.mean >= p_share else "tab:purple"))
    p = c.perfect
    what, _, upper = c.ceiling
    label = ("perfect-information share = bound with V = 0\n"
             f"{p.n:,} deals: the best proven fair ceiling" if what == "perfect"
             else f"perfect-information share\n{p.n:,} deals")
    rows.append((label, p.share, p.low, p.high, "tab:blue"))
    for k, f in c.floors.items():
        rows.append((f"{k}-step floor: fair for {_steps(k)}, then\n"
                     f"the dungeon seen ({f.n:,} deals)", f.share, f.low, f.high, "tab:green"))
    a = c.agent
    rows.append((f"the fair agent, no peeking\nseeds {c.agent_seeds[0]}-{c.agent_seeds[1]}",
                 a.share, a.low, a.high, "tab:orange"))
    fig, ax = plt.subplots(figsize=(9.0, 0.62 * len(rows) + 1.6))
    for i, (_, value, low, high, colour) in enumerate(rows):
        y = len(rows) - 1 - i
        ax.errorbar([100 * value], [y], xerr=[[100 * (value - low)], [100 * (high - value)]],
                    fmt="o", color=colour, capsize=4, markersize=6)
        ax.annotate(f"{100 * value:.2f}%", (100 * high, y), xytext=(6, 0),
                    textcoords="offset points", va="center", fontsize=9)
    ax.axvline(100 * upper, color="tab:blue", linestyle=":", linewidth=1)
    ax.axvspan(100 * a.share, 100 * upper, color="tab:blue", alpha=0.07)
    ax.annotate("what a better fair\nplayer may still win", (100 * (a.share + upper) / 2,
                len(rows) - 0.45), ha="center", va="top", fontsize=8, color="tab:blue")
    ax.set_yticks(range(len(rows)), [r[0] for r in rows][::-1], fontsize=8)
    ax.set_ylim(-0.6, len(rows) + 0.1)
    ax.set_xlim(0, 1.15 * max(100 * r[3] for r in rows))
    ax.set_xlabel("deals won (%)")
    ax.set_title(f"{c.variant}: no fair player wins more than {_pct(upper)} "
                 f"(one-sided 95%)\nthe fair agent wins {_pct(a.share, 1)}", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def figure_path(c: Ceiling) -> Path:
    return IMG / f"bound-{c.variant.replace('/', '-')}.png"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    p.add_argument("--check", action="store_true", help="exit 1 if the README's line is stale")
    args = p.parse_args(argv)
    cs = ceilings()
    new = rewrite(README.read_text(), sentence(cs), START, END)
    stale = refresh(README, new, "python scripts/bound_figure.py", args.check)
    if args.check:
        return stale
    import matplotlib

    matplotlib.use("Agg")  # files only, no window
    import matplotlib.pyplot as plt

    for c in cs:
        fig = draw(c)
        fig.savefig(figure_path(c), dpi=90, metadata={"Software": None})
        plt.close(fig)
        print(f"wrote {figure_path(c).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
