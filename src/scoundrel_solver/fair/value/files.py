"""Reading the learned value's JSON files (models, calibrations) with one set of guards.

A file is checked for size before it is read whole, and every failure to read or parse
it becomes a :class:`~scoundrel_solver.errors.SolverError` naming the file and what it
was meant to be, never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from ...errors import SolverError

__all__ = ["MAX_FILE", "read_json"]

MAX_FILE: Final = 64 << 20
"""The largest model or calibration file read (it is read whole into memory)."""


def read_json(path: str | Path, what: str) -> Any:
    """The parsed JSON of ``path``; ``what`` names the file in errors ("value model")."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_FILE:
            raise SolverError(f"{what} {str(path)!r} is larger than {MAX_FILE >> 20} MB")
        return json.loads(path.read_text())
    except OSError as err:
        raise SolverError(f"cannot read {what} {str(path)!r}: {err.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise SolverError(f"{what} {str(path)!r} is not JSON") from None
