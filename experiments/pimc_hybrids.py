"""PIMC and the fair agent combined: the hybrids of round eight, and the fair agent
to pair them with.

    python experiments/pimc_hybrids.py play --agent fair --seeds 0:200 --out pimc.jsonl
    python experiments/pimc_hybrids.py play --agent late --samples 8 --pimc-above 24 \
        --seeds 0:200 --out pimc.jsonl
    python experiments/pimc_hybrids.py table pimc.jsonl

``scripts/pimc_games.py`` (PIMC alone, the published games) with more agents; the
options, rows, resumption and table are that script's. Agents: ``pimc`` alone;
``fair`` (the fair agent's search alone, ``FairAgent(configs_with(endgame=0))``, for pairing);
and three hybrids of the two, switching at ``--pimc-above U`` unseen cards (their
rows carry ``pimc_above``):

- ``hybrid``: PIMC while more than U cards are unseen, the fair agent after
  ("PIMC early, expectimax late"); table rows ``hybrid>U``;
- ``filter``: likewise, but early on only PIMC's win counts, and the fair agent
  chooses among the actions that win most; ``filter>U``;
- ``late``: the fair agent while more than U cards are unseen, PIMC after;
  ``late<=U``. Round nine adopted it as ``FairAgent``'s own endgame.

The fair agent of these rows, alone and in the hybrids, is its search alone
(``FairAgent(configs_with(endgame=0))``): its own endgame is the late hybrid at 24.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import scoundrel_core as sc
from scoundrel_core import Action
from scoundrel_core.info import InfoState
from scoundrel_solver.exact.solve import is_winnable
from scoundrel_solver.fair.agent import FairAgent, choice_key
from scoundrel_solver.fair.pimc import PimcAgent, sample_orders, world

# the published PIMC script, whose play and table these agents join
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import pimc_games
from pimc_games import Player
from scoundrel_solver.fair.config import configs_with

SEARCH = configs_with(endgame=0)
"""The fair agent's search alone, without its endgame."""


class PimcThenFair:
    """PIMC while more than ``above`` cards are unseen, the fair agent after.

    Early on the fair agent searches shallowly (it deepens only from 30 unseen
    cards under classic) and leans on its leaf estimate, where PIMC solves whole
    sampled dungeons; late, PIMC's strategy fusion costs most and the agent's
    search reaches the end. Both see only the information state."""

    def __init__(self, pimc: PimcAgent, fair: FairAgent, above: int) -> None:
        self.pimc, self.fair, self.above = pimc, fair, above

    def reset(self, seed: int = 0) -> None:
        self.pimc.reset(seed)
        self.fair.reset(seed)

    def choose(self, info: InfoState) -> tuple[Action, bool]:
        early = len(info.unseen) > self.above
        return (self.pimc if early else self.fair).choose(info)


class FairThenPimc(PimcThenFair):
    """The other way round: the fair agent while more than ``above`` cards are unseen,
    PIMC from then on (where its exact solves of few unseen cards are cheap)."""

    def choose(self, info: InfoState) -> tuple[Action, bool]:
        early = len(info.unseen) > self.above
        return (self.fair if early else self.pimc).choose(info)


class PimcWinsThenFair(PimcThenFair):
    """Like :class:`PimcThenFair`, but early on PIMC only counts wins: among the actions
    that win in the most sampled dungeons the fair agent's value decides. The costly
    part of PIMC, exact scores to break its many early ties (most early samples are
    won by several actions), is left out, and a tie goes to the agent, which weighs
    what the player will learn rather than a line that foresees each sample."""

    def choose(self, info: InfoState) -> tuple[Action, bool]:
        if len(info.unseen) <= self.above:
            return self.fair.choose(info)
        acts = info.legal_actions()
        if len(acts) == 1:
            return acts[0], False
        worlds = [world(info, o) for o in sample_orders(info, self.pimc.samples, self.pimc.seed)]
        wins = {}
        for a in acts:
            n = 0
            for w in worlds:
                nxt = sc.apply(w, a)
                if nxt.is_over:
                    n += nxt.won
                    continue
                self.pimc.stats.solves += 1
                won = is_winnable(nxt, self.pimc.max_nodes)
                if won is None:  # cut short: counted as not won, and said so
                    self.pimc.stats.unproven += 1
                n += bool(won)
            wins[a] = n
        top = max(wins.values())
        vals = [v for v in self.fair.evaluate(info) if wins[v.action] == top]
        return max(vals, key=choice_key).action, False


def _switching(kind: type[PimcThenFair]) -> Callable[[PimcAgent | None, int | None],
                                                      PimcThenFair]:
    """Build a hybrid of one game: ``kind`` of PIMC and a fresh fair agent."""
    def build(pimc: PimcAgent | None, above: int | None) -> PimcThenFair:
        assert pimc is not None and above is not None
        return kind(pimc, FairAgent(SEARCH), above)
    return build


PLAYERS: dict[str, Player] = {
    **pimc_games.PLAYERS,
    "fair": Player(lambda _pimc, _above: FairAgent(SEARCH), samples=False),
    "hybrid": Player(_switching(PimcThenFair), switch=True, label="hybrid>{above}"),
    "filter": Player(_switching(PimcWinsThenFair), switch=True, label="filter>{above}"),
    "late": Player(_switching(FairThenPimc), switch=True, label="late<={above}"),
}
"""The agents ``play`` plays; the hybrids switch at ``--pimc-above`` unseen cards."""

HYBRIDS = tuple(name for name, player in PLAYERS.items() if player.switch)


if __name__ == "__main__":
    pimc_games.main(players=PLAYERS, description=__doc__ or "")
