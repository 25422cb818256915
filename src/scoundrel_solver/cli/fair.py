"""``scoundrel-solve --fair`` and ``--advise``: the fair-play agent from the main command.

``--fair`` plays the deal of the deal options without seeing the dungeon and
compares it with the perfect-information best; ``--advise TEXT`` values each
legal action of the position in TEXT (an info-state text that names its own
variant), so the deal options and the solver limits do not apply to it.
"""

from __future__ import annotations

import argparse

from scoundrel_core.info import parse_info_text

from ..exact.solve import solve
from ..fair.api import advise_values, play_fair
from .options import check_agrees, deal_from, refuse, table_mib_from
from .render import print_advice, print_fair

__all__ = ["run_fair"]


def run_fair(args: argparse.Namespace) -> int:
    """Play fairly (or advise on a position); raises ValueError on bad input."""
    refuse(args, ["out", "quiet"], "without --seeds")
    if args.advise is not None:
        refuse(args, ["seed", "deck", "daily", "state"],
               "to --advise (the position is the --advise text)")
        refuse(args, ["max_nodes", "max_seconds", "table_mib"],
               "to --advise (it searches without the exact solver)")
        info = parse_info_text(args.advise)
        check_agrees(args, info.variant, "the --advise position")
        print_advice(info, advise_values(info), args.json)
        return 0
    deal = deal_from(args)
    table_mib = table_mib_from(args)
    game = play_fair(deal.start)
    v = deal.start.variant
    best = solve(deal.start, variant=v.name, weapon_rule=v.weapon_rule,
                 max_nodes=args.max_nodes, max_seconds=args.max_seconds, table_mib=table_mib)
    print_fair(deal.start, deal.seed, game, best, args.json)
    return 0
