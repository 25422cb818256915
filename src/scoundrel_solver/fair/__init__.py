"""Fair play: agents that see only the information state, never the dungeon order.

Design
------
- Knowledge: :class:`scoundrel_core.info.InfoState` is the room, health,
  weapon, last kill, potion-used and fled flags, the set of unseen cards (the
  top of the dungeon, in uniformly random order) and the known bottom (the
  fled rooms, in order). Chance is explicit there: ``InfoState.apply`` returns
  a ``ChanceNode`` with ``chance_outcomes()`` per card (kind and value).
- Search (``_kernel``, numba, explicit stack): expectimax where decisions
  inside a room are deterministic and chance happens only at refills and
  flees. A refill draws a multiset of cards from the unseen ones
  (hypergeometric weights); room order is only needed if a room is fled, and
  there the value averages max(flee for this order, best non-flee) over the
  equally likely orders, which equals the ordered computation exactly.
  Chance nodes are memoised on the packed (unseen counts, bottom, health,
  weapon, last kill, carried card, depth) key.
- Settings: one frozen :class:`~.config.AgentConfig` per variant, in one table
  (:data:`~.config.AGENT_CONFIGS`); the agent's version follows its behaviour
  (:mod:`.version`).
- Depth counts refills expanded. At depth 0 a chance node takes the leaf
  evaluation (:mod:`.leaf`). ``FairAgent`` deepens by iterative deepening
  within a node budget; a search that never used the leaf is exact, and every
  value says whether it is.
- Twins: ``tests/naive/fair.py`` has an ordered card-by-card twin of the kernel and
  a world-enumerating brute force; the tests compare all three.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .agent import ActionValue, FairAgent
    from .api import FairGame, advise, advise_values, play_fair
    from .baselines import GreedyAgent, RandomAgent
    from .config import AGENT_CONFIGS, AgentConfig, agent_config
    from .version import agent_version

__all__ = [
    "AGENT_CONFIGS",
    "ActionValue",
    "AgentConfig",
    "FairAgent",
    "FairGame",
    "GreedyAgent",
    "RandomAgent",
    "advise",
    "advise_values",
    "agent_config",
    "agent_version",
    "play_fair",
]

# Where each public name lives. They are imported on first use, so that importing one
# module of the package (say .optimum, or .protocol) does not import numba and both
# search kernels (the fair one behind .agent, the exact one behind .api's .pimc).
_HOME = {
    "ActionValue": "agent", "FairAgent": "agent", "FairGame": "api", "advise": "api",
    "advise_values": "api",
    "play_fair": "api", "GreedyAgent": "baselines", "RandomAgent": "baselines",
    "AGENT_CONFIGS": "config", "AgentConfig": "config", "agent_config": "config",
    "agent_version": "version",
}


def __getattr__(name: str) -> Any:
    if name in _HOME:
        from importlib import import_module

        return getattr(import_module(f".{_HOME[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
