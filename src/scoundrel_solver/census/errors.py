"""The census's own error, and the check for its optional dependencies."""

from __future__ import annotations

from scoundrel_core import ScoundrelError

__all__ = ["CensusError", "CensusSystemError", "require"]


class CensusError(ScoundrelError):
    """A store that is not a census database, an unreachable scheduler, a bad file."""


class CensusSystemError(OSError):
    """The system refused the census's output: a full disk, a store or an export that
    cannot be written. An OSError, so the commands exit 1 (the system failed), not 2."""


def require(module: str) -> None:
    """Import ``module`` or fail with one line naming the missing ``census`` extra."""
    try:
        __import__(module)
    except ImportError:
        raise CensusError(
            f"this needs the 'census' extra (module {module!r} is missing): "
            "pip install 'scoundrel-solver[census]'"
        ) from None
