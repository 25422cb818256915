"""Dask worker preload for the local cluster: Ctrl-C is the client's business.

Ctrl-C in a terminal signals the whole foreground process group, the local
workers included. The client saves what it has and closes the cluster, which
stops the workers; a worker that handled SIGINT itself would only die first
with a traceback. Workers normally start with SIGINT ignored already (see
``engine``); this covers a worker the nanny restarts after a crash.
"""

from __future__ import annotations

import signal
from typing import Any

__all__ = ["dask_setup"]


def dask_setup(worker: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
