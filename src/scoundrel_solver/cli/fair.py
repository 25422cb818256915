"""``scoundrel-solve --fair`` and ``--advise``: the fair-play agent from the main command.

``--fair`` plays the deal of the deal options without seeing the dungeon and
compares it with the perfect-information best; ``--advise TEXT`` values each
legal action of the position in TEXT (an info-state text that names its own
variant), so the deal options and the solver limits do not apply to it.
"""

from __future__ import annotations

import argparse

from scoundrel_core import State
from scoundrel_core.info import parse_info_text

from ..exact.result import SolveResult
from ..exact.solve import solve
from ..fair.api import FairGame, advise_values, play_fair
from ..runs.workers import in_worker
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
        # The searches run in a worker, where a stop signal cannot wait on them.
        print_advice(info, in_worker(advise_values, info), args.json)
        return 0
    deal = deal_from(args)
    table_mib = table_mib_from(args)
    v = deal.start.variant

    def both(start: State) -> tuple[FairGame, SolveResult]:
        return play_fair(start), solve(start, variant=v.name, weapon_rule=v.weapon_rule,
                                       max_nodes=args.max_nodes, max_seconds=args.max_seconds,
                                       table_mib=table_mib)

    game, best = in_worker(both, deal.start)
    print_fair(deal.start, deal.seed, game, best, args.json)
    return 0
