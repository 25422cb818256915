"""The worker pool: solver and agent calls run in other processes, never on the server's loop.

The pool is bounded: when ``queue_limit`` calls are already waiting or running,
:meth:`Pool.run` raises :class:`Busy` at once (the server answers 503 with
``Retry-After``) instead of letting requests pile up. Workers compile their
kernels in the initializer, and :meth:`Pool.start` returns only when every
worker is up, so the server reports ready with warm workers.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ..runs.workers import check_workers
from . import tasks

__all__ = ["Busy", "Pool"]

T = TypeVar("T")


class Busy(RuntimeError):
    """Every worker is busy and the queue is full: try again shortly."""


class Pool:
    """``workers`` processes and at most ``queue_limit`` calls in flight."""

    def __init__(self, workers: int, queue_limit: int) -> None:
        if queue_limit < 1:
            raise ValueError(f"queue {queue_limit} must be positive")
        check_workers(workers, "workers")
        self.workers = workers
        self.queue_limit = queue_limit
        self.in_flight = 0
        self._executor = self._new_executor()

    def _new_executor(self) -> ProcessPoolExecutor:
        # spawn: a worker starts clean (no copy of the server's event loop or threads)
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=tasks.start, initargs=(os.getpid(),))

    async def start(self) -> list[int]:
        """Start every worker (each warms its kernels first); their process ids."""
        # A worker answers a ping only after its initializer; pings go out until every
        # worker has answered one (a warm worker may answer several meanwhile).
        seen: set[int] = set()
        while len(seen) < self.workers:
            seen.update(await asyncio.gather(*(self.run(tasks.ping)
                                               for _ in range(self.workers))))
        return sorted(seen)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker; :class:`Busy` if the queue is full."""
        if self.in_flight >= self.queue_limit:
            raise Busy(f"all {self.workers} workers are busy and {self.in_flight} requests wait")
        self.in_flight += 1
        try:
            return await asyncio.wrap_future(self._executor.submit(fn, *args))
        except BrokenProcessPool:
            # a worker died (killed, out of memory): start a fresh pool for the next calls
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = self._new_executor()
            raise Busy("a worker stopped; the pool was restarted") from None
        finally:
            self.in_flight -= 1

    def close(self) -> None:
        """Stop the workers, dropping the tasks not started."""
        self._executor.shutdown(wait=True, cancel_futures=True)
