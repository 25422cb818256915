"""What the commands print: a solve, a fair game, advice, summaries, and progress bars.

Results go to stdout (text for people, or one JSON object with ``--json``);
progress bars go to stderr and only when it is a terminal.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from tqdm import tqdm

import scoundrel_core as sc

from ..exact.result import SolveResult
from ..fair.agent import ActionValue
from ..fair.api import FairGame
from ..play.explain import describe_line
from ..runs.summary import Summary

__all__ = [
    "batch_summary",
    "eval_report",
    "print_advice",
    "print_eval",
    "print_fair",
    "print_solve",
    "print_summary",
    "progress",
]


def progress(total: int, desc: str, quiet: bool, unit: str = "deal") -> Any:
    """A tqdm bar on stderr; silent with ``--quiet`` or when stderr is not a terminal."""
    return tqdm(total=total, desc=desc, file=sys.stderr, unit=unit, dynamic_ncols=True,
                disable=quiet or not sys.stderr.isatty())


def print_solve(result: SolveResult, where: str) -> None:
    """A solve for people: the deal, the best score and whether it is proven, the line."""
    print(f"Deal ({where}, {result.variant}/{result.weapon_rule}), top first:")
    print("  " + " ".join(result.deck))
    outcome = "won" if result.best_score > 0 else "lost"
    if result.proven:
        print(f"Best score: {result.best_score} ({outcome}), proven optimal "
              f"({_count(result.nodes, 'node')}, {result.seconds:.3f} s)")
    else:
        print(f"Best score found: {result.best_score} ({outcome}), NOT proven: the search "
              f"stopped at {result.stopped_by}; the optimum is at most {result.upper_bound} "
              f"({_count(result.nodes, 'node')}, {result.seconds:.3f} s)")
    print()
    for line in describe_line(sc.parse_state(result.start), result.line):
        print(line)


def print_fair(start: sc.State, seed: int | None, game: FairGame, best: SolveResult,
               as_json: bool) -> None:
    """A fair game next to the perfect-information best of the same deal."""
    if as_json:
        print(json.dumps({
            "format": "scoundrel-fair/1",
            "seed": seed,
            "variant": start.variant.name,
            "weapon_rule": start.variant.weapon_rule,
            "line": list(game.actions),
            "exact": list(game.exact),
            "score": game.score,
            "won": game.won,
            "perfect_best_score": best.best_score,
            "perfect_proven": best.proven,
        }))
        return
    exact_share = sum(game.exact) / len(game.exact) if game.exact else 1.0
    print(f"Fair play ({'seed ' + str(seed) if seed is not None else 'given deal'}, "
          f"{start.variant}): score {game.score} ({'won' if game.won else 'lost'}); "
          f"{100 * exact_share:.0f}% of decisions searched exactly, the rest depth-limited")
    proof = "proven" if best.proven else "not proven"
    print(f"Perfect-information best for this deal: {best.best_score} ({proof})")
    print()
    for line in describe_line(start, game.actions):
        print(line)


def print_advice(info: sc.InfoState, values: Sequence[ActionValue], as_json: bool) -> None:
    """Each legal action's chance of winning and expected final score, and the value the
    agent ranks by (expected score + win bonus x chance of winning), best first, the
    agent's own move marked (JSON: in legal-action order, one object per action, the
    agent's move with ``"choice": true``, and ``search_win_chance`` and
    ``search_expected_score`` the search's own numbers beside the calibrated ones shown).
    In the endgame the rows are sampled (``samples`` > 0) and rank by orders won, then
    mean score."""
    from ..fair.agent import choice, ranked  # the values exist: the agent has loaded

    best = choice(info, values)
    if as_json:
        print(json.dumps([{"action": str(v.action), "value": v.value,
                           "win_chance": v.win_chance,
                           "search_win_chance": v.searched_win_chance,
                           "expected_score": v.expected_score,
                           "search_expected_score": v.searched_expected_score,
                           "exact": v.exact, "samples": v.samples, "choice": v is best}
                          for v in values]))
        return

    samples = max((v.samples for v in values), default=0)
    if samples:
        print(f"endgame: {samples} sampled dungeon orders, each solved as if known; the agent "
              "plays the action that wins most of them, then the best mean score")
    print("action  win chance  expected score     value")
    for v in ranked(info, values):
        how = "exact" if v.exact else (
            f"sampled ({samples} orders)" if v.samples else "depth-limited estimate")
        mark = "  <- the agent's move" if v is best else ""
        print(f"{v.action!s:<6} {100 * v.win_chance:10.1f}%  {v.expected_score:14.2f}  "
              f"{v.value:8.2f}  {how}{mark}")


def batch_summary(s: Summary) -> dict[str, Any]:
    """The solver batch's summary object (see docs/commands.md, "Output formats")."""
    if not s.deals:
        return {"deals": 0}
    return {
        "deals": s.deals,
        "proven": s.proven,
        "winnable": s.wins,
        "score_30": s.thirties,
        "mean_score": s.mean_score,
        "median_seconds": s.median_seconds,
        "worst_seconds": s.worst_seconds,
        "mean_nodes": s.mean_nodes,
        "scores": dict(sorted(s.scores.items())),
    }


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def print_summary(summary: dict[str, Any], as_json: bool) -> None:
    """The batch summary: one JSON object for programs, sentences for people."""
    if as_json:
        print(json.dumps(summary, allow_nan=False))
        return
    where = f"{summary['variant']}/{summary['weapon_rule']}, seeds {summary['seeds']}"
    deals = summary["deals"]
    print(f"{_count(deals, 'deal')} of {where}" + (":" if deals else "."))
    if deals:
        print(f"  {summary['proven']:,} proven optimal, {summary['winnable']:,} winnable, "
              f"{summary['score_30']:,} reach 30; mean best score {summary['mean_score']:.2f}")
        print(f"  per deal: median {summary['median_seconds']:.3f} s, worst "
              f"{summary['worst_seconds']:.3f} s, {summary['mean_nodes']:,.0f} nodes on average")
        scores = ", ".join(f"{score}: {n:,}" for score, n in summary["scores"].items())
        print(f"  best scores (score: deals): {scores}")
    out = summary.get("out")
    print(f"  results in {out}" if out is not None else "  results not kept (no --out)")


def eval_report(s: Summary, wall_seconds: float, played: int | None = None) -> dict[str, Any]:
    """The evaluation's numbers: win rate with its 95% Wilson interval, scores, timing
    (``seconds`` of this run, spread over the ``played`` games it played: a resumed run
    counts the games of its file in the rest, not in the time)."""
    played = s.deals if played is None else played
    lo, hi = s.win_rate_ci95
    return {
        "games": s.deals,
        "wins": s.wins,
        "win_rate": s.win_rate,
        "win_rate_ci95": [lo, hi],
        "mean_score": s.mean_score,
        "median_score": s.median_score,
        "seconds": wall_seconds,
        "seconds_per_game": wall_seconds / played if played else 0.0,
        "exact_decision_share": s.exact_decision_share,
    }


def print_eval(report: dict[str, Any], title: str, as_json: bool) -> None:
    """Print an evaluation's report as text (under ``title``) or as one JSON object."""
    if as_json:
        print(json.dumps(report))
        return
    lo, hi = report["win_rate_ci95"]
    print(
        f"{title}: {report['games']} games,"
        f" {report['wins']} wins, win rate {100 * report['win_rate']:.2f}%"
        f" (95% CI {100 * lo:.2f}-{100 * hi:.2f}%), mean score {report['mean_score']:.2f},"
        f" median {report['median_score']:g}, {report['seconds_per_game']:.3f} s/game"
    )
    perfect = report.get("perfect_winnable_share")
    if perfect is not None:
        print(f"winnable with perfect information: {100 * perfect:.1f}%")
