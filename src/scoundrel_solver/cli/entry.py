"""Console-script entry points: the commands' ``main`` functions, made safe for pipes.

``scoundrel-solve ... | head`` closes stdout early; that is the reader's
choice, not an error, so it ends quietly instead of with a traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

__all__ = [
    "bound_main",
    "census_main",
    "eval_main",
    "play_main",
    "solve_main",
    "value_main",
    "web_main",
]


def _quiet_on_closed_pipe(main: Callable[[Sequence[str] | None], int]) -> int:
    from .options import finished

    try:
        code = finished(main(None))
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        # Python would complain again when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def solve_main() -> int:
    """The ``scoundrel-solve`` console script."""
    from .solve import main

    return _quiet_on_closed_pipe(main)


def eval_main() -> int:
    """The ``scoundrel-eval`` console script."""
    from .eval import main

    return _quiet_on_closed_pipe(main)


def play_main() -> int:
    """The ``scoundrel-play`` console script."""
    from .play import main

    return _quiet_on_closed_pipe(main)


def census_main() -> int:
    """The ``scoundrel-census`` console script."""
    from .census import main

    return _quiet_on_closed_pipe(main)


def web_main() -> int:
    """The ``scoundrel-web`` console script."""
    from .web import main

    return _quiet_on_closed_pipe(main)


def bound_main() -> int:
    """The ``scoundrel-bound`` console script."""
    from .bound import main

    return _quiet_on_closed_pipe(main)


def value_main() -> int:
    """The ``scoundrel-value`` console script."""
    from .value import main

    return _quiet_on_closed_pipe(main)
