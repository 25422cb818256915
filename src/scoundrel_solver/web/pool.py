"""The worker pool: solver and agent calls run in other processes, never on the server's loop.

The pool is bounded: when ``queue_limit`` calls are already waiting or running,
:meth:`Pool.run` raises :class:`Busy` at once (the server answers 503 with
``Retry-After``) instead of letting requests pile up. Workers compile their
kernels in the initializer, and :meth:`Pool.start` returns only when every
worker is up, so the server reports ready with warm workers.

A request's work is bounded as a whole: every call a request makes shares one
deadline (:meth:`Pool.run`'s ``deadline``), and a call whose client has gone
or whose deadline passed is given up. A call not started yet is cancelled; a
stoppable one (a review) sees its stop flag, shared with the workers, between
two decisions and ends there; the others (a solve, a hint) are bounded by their
own limits. A call counts as in flight until its worker is done with it, so the
queue bound stays true while a given-up call finishes.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ..runs.workers import MAX_QUEUE, check_workers
from . import tasks

__all__ = ["MAX_QUEUE", "Busy", "ClientGone", "Overrun", "Pool"]

T = TypeVar("T")

class Busy(RuntimeError):
    """Every worker is busy and the queue is full: try again shortly."""


class Overrun(RuntimeError):
    """The request needed more of the workers' time than the server gives one request."""


class ClientGone(RuntimeError):
    """The client closed the connection before the answer was ready: nobody reads it."""


class Pool:
    """``workers`` processes and at most ``queue_limit`` calls in flight."""

    def __init__(self, workers: int, queue_limit: int) -> None:
        if not 1 <= queue_limit <= MAX_QUEUE:
            raise ValueError(f"queue {queue_limit} must be 1..{MAX_QUEUE:,}")
        check_workers(workers, "workers")
        self.workers = workers
        self.queue_limit = queue_limit
        self.in_flight = 0
        # One stop flag per call in flight, shared with every worker (inherited at spawn).
        self._stops: Any = multiprocessing.get_context("spawn").RawArray("b", queue_limit)
        self._free = list(range(queue_limit))
        self._executor = self._new_executor()

    def _new_executor(self) -> ProcessPoolExecutor:
        # spawn: a worker starts clean (no copy of the server's event loop or threads)
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=tasks.start, initargs=(os.getpid(), self._stops))

    async def start(self) -> list[int]:
        """Start every worker (each warms its kernels first); their process ids."""
        # A worker answers a ping only after its initializer; pings go out until every
        # worker has answered one (a warm worker may answer several meanwhile).
        seen: set[int] = set()
        while len(seen) < self.workers:
            seen.update(await asyncio.gather(*(self.run(tasks.ping)
                                               for _ in range(self.workers))))
        return sorted(seen)

    async def run(self, fn: Callable[..., T], *args: Any, deadline: float | None = None,
                  gone: Callable[[], Awaitable[None]] | None = None,
                  stoppable: bool = False) -> T:
        """``fn(*args)`` in a worker; :class:`Busy` if the queue is full.

        ``deadline`` (a ``time.monotonic()`` value) and ``gone`` (awaits the client's
        leaving) give the call up: :class:`Overrun` past the deadline,
        :class:`ClientGone` when the client left. A ``stoppable`` call gets its stop
        flag's index as a last argument, and is told to stop when given up.
        """
        if self.in_flight >= self.queue_limit:
            raise Busy(f"all {self.workers} workers are busy and {self.in_flight} requests wait")
        loop = asyncio.get_running_loop()
        slot = self._free.pop()
        self._stops[slot] = 0
        self.in_flight += 1

        def release() -> None:
            self._free.append(slot)
            self.in_flight -= 1

        try:
            future: Future[T] = self._executor.submit(fn, *args, *((slot,) if stoppable else ()))
        except BaseException:
            release()
            raise
        future.add_done_callback(lambda _: loop.call_soon_threadsafe(release))
        waiter = asyncio.wrap_future(future)
        watcher = asyncio.ensure_future(gone()) if gone is not None else None
        try:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            pending: set[asyncio.Future[Any]] = {waiter}
            if watcher is not None:
                pending.add(watcher)
            done, _ = await asyncio.wait(pending, timeout=left,
                                         return_when=asyncio.FIRST_COMPLETED)
            if waiter in done:
                return waiter.result()
            self._stops[slot] = 1  # the worker stops at its next check; a queued call won't start
            future.cancel()
            if watcher is not None and watcher in done:
                raise ClientGone("the client closed the connection")
            raise Overrun("the request needed more of the workers' time than the "
                          "server gives one request")
        except BrokenProcessPool:
            # a worker died (killed, out of memory): start a fresh pool for the next calls
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = self._new_executor()
            raise Busy("a worker stopped; the pool was restarted") from None
        finally:
            if watcher is not None:
                watcher.cancel()
            if not waiter.done():
                waiter.cancel()
                # the call's own outcome (stopped, or a result) is nobody's now
                waiter.add_done_callback(lambda w: w.cancelled() or w.exception())

    def close(self) -> None:
        """Stop the workers, dropping the tasks not started."""
        self._executor.shutdown(wait=True, cancel_futures=True)
