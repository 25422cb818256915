"""Worker processes: how many a command may start, and how they end with their parent.

Every command that starts worker processes (``scoundrel-eval --jobs``,
``scoundrel-web --workers``, ``scoundrel-census run --workers``) checks the
count against :data:`MAX_WORKERS` before anything starts, and every worker
calls :func:`die_with_parent` first, so a parent killed by SIGKILL (which no
handler sees) does not leave its workers running with parent 1.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from typing import Final

__all__ = ["MAX_QUEUE", "MAX_WORKERS", "WATCH_SECONDS", "check_workers", "die_with_parent"]

MAX_WORKERS: Final = 256
"""The most worker processes one command starts. Each holds its own solver tables and
compiled kernels (about 200 MB), so 256 is already more than any machine this runs on
benefits from; a larger count is refused before any worker starts."""

MAX_QUEUE: Final = 10_000
"""The most calls a pool of workers lets wait or run at once (``scoundrel-web --queue``):
each has a stop flag shared with the workers, so the bound is checked before any is made."""

WATCH_SECONDS: Final = 0.5
"""How often a worker checks that its parent is still there (where the OS cannot tell it)."""

_PR_SET_PDEATHSIG: Final = 1  # from <linux/prctl.h>


def check_workers(n: int, option: str) -> int:
    """``n`` if it is a worker count a command may start (1..:data:`MAX_WORKERS`);
    otherwise a ValueError naming ``option``, its value and the bound.

    >>> check_workers(4, "--jobs")
    4
    >>> check_workers(100_000, "--jobs")
    Traceback (most recent call last):
    ValueError: --jobs 100000 is more worker processes than 256, the most one command starts
    """
    if n < 1:
        raise ValueError(f"{option} {n} must be at least 1")
    if n > MAX_WORKERS:
        raise ValueError(f"{option} {n} is more worker processes than {MAX_WORKERS}, "
                         "the most one command starts")
    return n


def _watch(parent: int) -> None:
    while True:
        time.sleep(WATCH_SECONDS)
        if os.getppid() != parent:
            os._exit(1)  # adopted: the parent is gone, and nobody will collect our work


def die_with_parent(parent: int, *, kernel: bool = True) -> None:
    """End this process when the process ``parent`` ends, however it ends.

    On Linux the kernel sends SIGKILL at the parent's death (``PR_SET_PDEATHSIG``);
    ``kernel=False`` leaves that out, for a process started by a thread of its
    parent that may end before the parent does (the kernel's signal follows the
    starting thread). Everywhere, a daemon thread also checks every
    :data:`WATCH_SECONDS` that the parent is still this process's parent: once a
    process is adopted (its parent died), it exits. A parent already gone when
    this is called ends this process at once.
    """
    if kernel and sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the watching thread below still ends us
    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="die-with-parent", daemon=True).start()
