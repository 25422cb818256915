"""``scoundrel-solve --fair`` and ``--fair --advise``: the fair-play agent from the main command."""

from __future__ import annotations

import argparse
import json

import scoundrel_core as sc

from ..explain import describe_line
from ..fair.api import advise, play_fair
from ..solve import solve

__all__ = ["run_fair"]


def _start(args: argparse.Namespace) -> tuple[sc.State, int | None]:
    variant = sc.get_variant(args.variant, args.weapon_rule)
    if args.state is not None:
        return sc.parse_state(args.state), None
    if args.deck is not None:
        return sc.new_game(deck=args.deck, variant=variant), None
    if args.daily is not None:
        seed = sc.daily_seed(args.daily)
    else:
        try:
            seed = int(args.seed if args.seed is not None else "0", 10)
        except ValueError:
            raise sc.SeedError(f"seed {args.seed!r} is not an integer") from None
    return sc.new_game(seed=seed, variant=variant), seed


def run_fair(args: argparse.Namespace) -> int:
    """Play fairly (or advise on a position); raises ValueError on bad input."""
    if args.advise is not None:
        values = advise(args.advise)
        if args.json:
            print(json.dumps([{"action": a, "value": v, "exact": e} for a, v, e in values]))
        else:
            for a, v, e in sorted(values, key=lambda x: -x[1]):
                print(f"{a:<6} {v:8.3f}  {'exact' if e else 'depth-limited estimate'}")
        return 0
    start, seed = _start(args)
    game = play_fair(start)
    best = solve(start, variant=start.variant.name, weapon_rule=start.variant.weapon_rule,
                 max_seconds=args.max_seconds, table_mib=args.table_mib)
    exact_share = sum(game.exact) / len(game.exact) if game.exact else 1.0
    if args.json:
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
        return 0
    print(f"Fair play ({'seed ' + str(seed) if seed is not None else 'given deal'}, "
          f"{start.variant}): score {game.score} ({'won' if game.won else 'lost'}); "
          f"{100 * exact_share:.0f}% of decisions searched exactly, the rest depth-limited")
    proof = "proven" if best.proven else "not proven"
    print(f"Perfect-information best for this deal: {best.best_score} ({proof})")
    print()
    for line in describe_line(start, game.actions):
        print(line)
    return 0
