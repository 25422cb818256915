"""Which fair agent made a result: the package version plus a hash of the agent's source.

Games played by two revisions of the agent must never be mixed up in one
table. The hash covers every file of this package (the search kernel, the
agent, its leaf and the shipped win model), the rules layer the kernel plays
by (``scoundrel_core.encoding``, ``steps``, ``jit``), and the exact solver's
own version (the agent asks the exact solver when nothing is unseen), so any
change to what the agent does changes it.

>>> v = agent_version()
>>> v.startswith(__version__ + "+fair.") and len(v.split(".")[-1]) == 12
True
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from scoundrel_core import __version__

from ..revision import solver_version

__all__ = ["agent_source_files", "agent_version"]

_HERE = Path(__file__).resolve().parent
# The rules layer the kernel plays by: the encoding, the rule steps and their compiled
# form (scoundrel_core sits beside scoundrel_solver, in src/ or site-packages).
_RULES = [_HERE.parents[1] / "scoundrel_core" / name
          for name in ("encoding.py", "steps.py", "jit.py")]


def agent_source_files() -> tuple[Path, ...]:
    """The files the agent's behaviour is read from, sorted."""
    own = [p for p in _HERE.iterdir() if p.suffix in (".py", ".json")]
    return tuple(sorted([*own, *_RULES]))


@lru_cache(maxsize=1)
def agent_version() -> str:
    """``VERSION+fair.HASH``: SHA-256 (first 12 hex digits) over the names and sources of
    :func:`agent_source_files` and the exact solver's version."""
    digest = hashlib.sha256(solver_version().encode() + b"\0")
    for path in agent_source_files():
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return f"{__version__}+fair.{digest.hexdigest()[:12]}"
