"""Dask worker preload for the local cluster: Ctrl-C is the client's business, and a
worker ends with the client.

Ctrl-C in a terminal signals the whole foreground process group, the local
workers included. The client saves what it has and closes the cluster, which
stops the workers; a worker that handled SIGINT itself would only die first
with a traceback. Workers normally start with SIGINT ignored already (see
``engine``); this covers a worker the nanny restarts after a crash.

A client killed outright (SIGKILL) closes no cluster: each worker then ends
itself once it is adopted (:func:`~scoundrel_solver.runs.workers.die_with_parent`,
without the kernel's signal: Dask starts workers from a thread of the client).
"""

from __future__ import annotations

import os
import signal
from typing import Any

from ..runs.workers import die_with_parent

__all__ = ["dask_setup"]


def dask_setup(worker: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(os.getppid(), kernel=False)
