"""Which fair agent made a result: the package version plus a hash of the agent's source.

Games played by two revisions of the agent must never be mixed up in one
table. The hash covers every file of this package (the search kernel, the
agent, its leaf and the shipped win model), the card encoding and the shared
rule steps the kernel is built from, and the exact solver's own version (the
agent asks the exact solver when nothing is unseen), so any change to what the
agent does changes it.

>>> v = agent_version()
>>> v.startswith(__version__ + "+fair.") and len(v.split(".")[-1]) == 12
True
>>> all(p.is_file() for p in agent_source_files())
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


_SHARED = ("encoding.py", "jit.py", "steps.py")
"""The modules of ``scoundrel_core`` the fair kernel is built from (card types, the
shared rule steps: their text in ``steps``, compiled by ``jit``)."""


def agent_source_files() -> tuple[Path, ...]:
    """The files the agent's behaviour is read from, sorted."""
    own = [p for p in _HERE.iterdir() if p.suffix in (".py", ".json")]
    core = _HERE.parents[1] / "scoundrel_core"
    return tuple(sorted([*own, *(core / name for name in _SHARED)]))


@lru_cache(maxsize=1)
def agent_version() -> str:
    """``VERSION+fair.HASH``: SHA-256 (first 12 hex digits) over the names and sources of
    :func:`agent_source_files` and the exact solver's version."""
    digest = hashlib.sha256(solver_version().encode() + b"\0")
    for path in agent_source_files():
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return f"{__version__}+fair.{digest.hexdigest()[:12]}"
