"""Which fair agent made a result: a declared version, checked by the agent's fingerprint.

The version follows the agent's behaviour, not its text
(:mod:`scoundrel_solver.provenance.fingerprint`): ``fingerprint.json`` beside this
module holds the version, a fixed set of information states of every variant
and the fingerprint of the agent's answers there (every action's values, the
action it plays). Editing a comment or moving code leaves the version as it
is; changing a weight changes the fingerprint, and a test then demands a new
version. The version in force was named, before fingerprints, after a hash of
the agent's source; it keeps that name because the behaviour is the same.

>>> v = agent_version()
>>> v.startswith("0.") and "+fair." in v
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

import scoundrel_core as sc
from scoundrel_core.info import InfoState, observe

from ..provenance.fingerprint import declared_version
from .config import AGENT_CONFIGS, AgentConfig

__all__ = ["RECORD_PACKAGE", "agent_version", "fingerprint_lines", "sample_positions"]

RECORD_PACKAGE: Final = "scoundrel_solver.fair"
"""The package whose ``fingerprint.json`` records the agent's behaviour."""


def agent_version() -> str:
    """The fair agent's version (``VERSION+fair.NAME``), stamped on every game it plays."""
    return declared_version("fair")


def _row(v: object) -> str:
    from .agent import ActionValue

    assert isinstance(v, ActionValue)
    # nine significant digits: far below any change of a weight, far above the last bits
    return (f"{v.action} {v.value:.9g} {v.win_chance:.9g} {v.expected_score:.9g} "
            f"{int(v.exact)} {v.samples}")


def fingerprint_lines(positions: Iterable[str], config: AgentConfig | None = None
                      ) -> Iterator[str]:
    """One line per information state: the agent's values of every action, the action
    it plays and whether that was exact; ``config`` as for ``FairAgent``."""
    from .agent import FairAgent

    for text in positions:
        info = InfoState.from_text(text)
        values = FairAgent(config).evaluate(info)  # a fresh agent: no memo carried over
        action, exact = FairAgent(config).choose(info)
        yield f"{text}\t{action} {int(exact)}\t" + "; ".join(_row(v) for v in values)


def sample_positions(seeds: Iterable[int] = (0, 1, 2)) -> list[str]:
    """Information states from the agent's own games on ``seeds`` of every variant: per
    game the first decision, the first of the endgame and the last of each phase (only
    the leaf, deepening, the endgame, every card known; the last is the cheapest to
    search), decisions with one legal action left out. The first decision's values are
    estimated under every variant, so a change of the chances shown (which differ from
    the search's only where a value is not exact) shows in the fingerprint everywhere.
    The endgame's first decision has the most cards unseen, where its race draws more
    orders than eight and the scores that break a tie of wins are raced too: the last
    endgame decision alone did not tell the endgame's settings apart."""
    from .agent import FairAgent

    out: list[str] = []
    for variant, config in AGENT_CONFIGS.items():
        for seed in seeds:
            agent = FairAgent()
            s = sc.new_game(seed=seed, variant=variant.name, weapon_rule=variant.weapon_rule)
            info = InfoState.initial(s)
            last: dict[str, str] = {}
            while not s.is_over:
                u = len(info.unseen)
                phase = ("known" if u == 0 else "endgame" if u <= config.endgame
                         else "deepen" if u <= config.deepen_at else "leaf")
                if len(info.legal_actions()) > 1:
                    last.setdefault("first", info.to_text())
                    if phase == "endgame":
                        last.setdefault("endgame-first", info.to_text())
                    last[phase] = info.to_text()
                a = agent(info)
                s2 = sc.apply(s, a)
                info, s = observe(info, a, s2), s2
            out.extend(t for t in dict.fromkeys(last.values()) if t not in out)
    return out
