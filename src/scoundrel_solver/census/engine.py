"""The census driver: chunks of seeds out to Dask workers, rows back into the store.

Only this (client) process writes to the store, one transaction per chunk as
its result arrives. At most ``in_flight`` chunks are submitted at a time and
chunks are made lazily from the range, so a range of 10**9 seeds costs no
memory up front. The scheduler re-runs the chunk of a worker that dies, so
nothing is lost; results are only written once they are back.

Dask is imported inside the functions: ``scoundrel-solve`` and the rest of the
library work without the ``census`` extra installed.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ..runs.seeds import SeedRange
from ..runs.workers import MAX_WORKERS, check_workers
from .errors import CensusError, require
from .store import Store
from .work import solve_chunk

__all__ = ["DEFAULT_CHUNK", "MAX_CHUNK", "CensusRun"]

DEFAULT_CHUNK = 50  # seeds per task: seconds of work on classic, a fraction on hard
"""Seeds per task by default: seconds of work on classic, a fraction of one on hard."""
MAX_CHUNK = 100_000
"""The largest ``--chunk-size``: a chunk's seeds are listed, so it is bounded (checked
before anything is made); hard deals, the quickest, need no more than a few hundred."""
CONNECT_TIMEOUT = 5.0  # seconds to reach a --scheduler before giving up


def _first_line(err: BaseException) -> str:
    text = str(err).strip() or type(err).__name__
    return text.splitlines()[0]


@contextmanager
def _sigint_ignored_by_children() -> Iterator[None]:
    """Start processes that ignore SIGINT: an ignored signal stays ignored across
    fork and exec, and Python then installs no KeyboardInterrupt handler.

    Ctrl-C reaches the whole process group; only the client should act on it
    (save, close the cluster), not the workers with tracebacks of their own.
    A Ctrl-C while the workers start is ignored too: the run has not begun.
    """
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers belong to the main thread; leave them alone
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Hold SIGINT back for the duration (it is delivered right after), where the OS can.

    Only the main thread may change the signal mask; elsewhere this does nothing.
    """
    main = threading.current_thread() is threading.main_thread()
    if not main or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    # SIGTERM and SIGHUP too: the commands hand them to the Ctrl-C handler.
    held = {signal.SIGINT} | {getattr(signal, n) for n in ("SIGTERM", "SIGHUP")
                              if hasattr(signal, n)}
    old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


@dataclass
class CensusRun:
    """One ``run``: solve every seed of ``seeds`` the store does not settle yet.

    ``saved`` counts rows written (new or improved) so far; it stays right when
    the run is interrupted, so the caller can say what was kept.
    """

    store: Store
    seeds: SeedRange
    variant: str
    weapon_rule: str
    max_seconds: float | None = None
    workers: int | None = None       # local cluster size (default: one per core)
    scheduler: str | None = None     # address of an existing Dask scheduler
    chunk_size: int = DEFAULT_CHUNK
    in_flight: int | None = None     # chunks submitted at once (default: 3 per thread)
    progress: bool = True
    saved: int = 0
    skipped: int = 0

    def _todo(self) -> Iterator[list[int]]:
        """The seeds still to solve, chunk by chunk (settled seeds left out)."""
        for chunk in self.seeds.chunks(self.chunk_size):
            done = self.store.settled(self.variant, self.weapon_rule, chunk, self.max_seconds)
            todo = [s for s in chunk if s not in done]
            if todo:
                yield todo

    def _connect(self) -> tuple[Any, Any]:
        require("distributed")
        import distributed

        dd: Any = distributed  # untyped library: its calls are checked by the tests

        if self.scheduler is not None:
            try:
                return dd.Client(self.scheduler, timeout=CONNECT_TIMEOUT), None
            except (OSError, ValueError, TypeError) as err:
                raise CensusError(f"cannot reach the Dask scheduler at {self.scheduler!r}: "
                                  f"{_first_line(err)}") from None
        n = self.workers if self.workers is not None else min(os.cpu_count() or 1, MAX_WORKERS)
        check_workers(n, "workers")
        # One single-threaded process per core: the solver holds the GIL in
        # numba code and keeps a transposition table per process.
        with _sigint_ignored_by_children():
            cluster = dd.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                      dashboard_address=":0",  # any free port: no clash
                                      silence_logs=logging.CRITICAL,
                                      preload=["scoundrel_solver.census._worker_setup"])
        try:
            return dd.Client(cluster), cluster
        except BaseException:
            cluster.close()
            raise

    def execute(self) -> int:
        """Solve the range; returns how many rows were written (also in ``saved``)."""
        from tqdm import tqdm

        if not 1 <= self.chunk_size <= MAX_CHUNK:
            raise CensusError(f"chunk size {self.chunk_size} must be 1..{MAX_CHUNK:,}")
        self.skipped = self.store.settled_count(self.variant, self.weapon_rule, self.seeds,
                                                self.max_seconds)
        if self.skipped == self.seeds.count:
            return 0
        client, cluster = self._connect()
        try:
            with tqdm(total=self.seeds.count, initial=self.skipped, unit="deal",
                      desc=f"{self.variant}/{self.weapon_rule}", file=sys.stderr,
                      disable=not self.progress, smoothing=0.05) as bar:
                self._drive(client, bar)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
        return self.saved

    def _drive(self, client: Any, bar: Any) -> None:
        import distributed

        tag = uuid.uuid4().hex[:8]
        todo = self._todo()
        running: Any = distributed.as_completed()  # type: ignore[no-untyped-call]

        def top_up() -> None:
            # Asked again each time: workers may join (or leave) an external cluster.
            limit = self.in_flight or 3 * max(1, sum(client.nthreads().values()))
            while running.count() < limit:
                seeds = next(todo, None)
                if seeds is None:
                    return
                key = f"census-{self.variant}-{self.weapon_rule}-{seeds[0]}-{tag}"
                running.add(client.submit(solve_chunk, self.variant, self.weapon_rule, seeds,
                                          self.max_seconds, key=key, pure=False))

        top_up()
        for future in running:
            rows = future.result()
            future.release()
            # Commit and count as one step: a Ctrl-C between the two would leave the
            # "results saved" line short of what the store holds.
            with _ctrl_c_held(), self.store.transaction():
                self.saved += self.store.add(rows)
            bar.update(len(rows))
            top_up()
