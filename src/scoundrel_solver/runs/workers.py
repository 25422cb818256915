"""Worker processes: how many may start, how they end with their parent, one for kernels.

Every command that starts worker processes (``scoundrel-eval --jobs``,
``scoundrel-web --workers``, ``scoundrel-census run --workers``) checks the
count against :data:`MAX_WORKERS` before anything starts, and every worker
calls :func:`die_with_parent` first, so a parent killed by SIGKILL (which no
handler sees) does not leave its workers running with parent 1. A
:class:`KernelWorker` runs a command's searches (numba kernels, which no signal
interrupts) so that its main thread stays where a stop signal reaches it.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

__all__ = ["MAX_QUEUE", "MAX_WORKERS", "WATCH_SECONDS", "KernelWorker", "WorkerDied",
           "check_workers", "die_with_parent", "in_worker"]

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


# --- compiled work away from the main thread ------------------------------------------------

_STOP_SIGNALS: Final = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP")
                             if hasattr(signal, n))


class WorkerDied(Exception):
    """A worker process ended without being asked (the OOM killer, a ``kill -9``)."""


class _Failed:
    """An exception raised by the work, carried back to the caller; one that does not
    pickle (an exception class with its own arguments) travels as its type's name and
    message, as the ValueError or RuntimeError it is a kind of."""

    def __init__(self, err: BaseException) -> None:
        self.err: BaseException = err


def _portable(err: BaseException) -> BaseException:
    import pickle

    try:
        back = pickle.loads(pickle.dumps(err))
        if isinstance(back, BaseException):
            return back
    except Exception:  # any failure to travel: say it in words instead
        pass
    kind = ValueError if isinstance(err, ValueError) else RuntimeError
    return kind(str(err) or type(err).__name__)


def _serve(conn: Any, work: Callable[[Any], Any], parent: int) -> None:
    """The worker's loop: a task in, its result (or the exception it raised) out, until
    the parent closes the pipe. The stop signals are the parent's to answer (a terminal
    sends them to the whole group); the parent kills this process when it stops."""
    for sig in _STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    die_with_parent(parent)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            os._exit(0)
        try:
            answer: Any = work(task)
        except BaseException as err:  # the caller raises it
            answer = _Failed(_portable(err))
        conn.send(answer)


class KernelWorker:
    """One worker process that runs compiled work (a numba kernel) for the main process.

    Python runs signal handlers in the main thread, between bytecodes: a main thread
    inside a kernel for an hour (a node budget of 10**9) hears no Ctrl-C and no
    SIGTERM until the kernel returns, and numba's kernels hold the GIL, so a thread
    would not help. Here the main thread only waits on a pipe, where a signal
    interrupts it at once: the caller saves what is finished and :meth:`close` kills
    the worker. The worker is forked, so it starts in milliseconds with the parent's
    loaded kernels and ``work`` (a closure is fine: nothing is pickled but tasks and
    results); it ignores the stop signals and ends with its parent
    (:func:`die_with_parent`). Where ``fork`` does not exist the work runs in the
    calling thread, as before.

    Results come back in the order of the tasks; :meth:`map` keeps ``ahead`` tasks
    in flight, so the worker never waits for the parent to write a row. A worker
    killed from outside is :class:`WorkerDied`; an exception ``work`` raises is
    raised by the caller.
    """

    def __init__(self, work: Callable[[Any], Any], ahead: int = 4) -> None:
        self.work = work
        self.ahead = max(1, ahead)
        self._proc: Any = None
        self._conn: Any = None

    @staticmethod
    def available() -> bool:
        """Whether work can run in a forked worker here (Linux, macOS)."""
        import multiprocessing as mp

        return "fork" in mp.get_all_start_methods()

    def __enter__(self) -> KernelWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self) -> None:
        import multiprocessing as mp

        ctx = mp.get_context("fork")
        _kill_at_exit()
        ours, theirs = ctx.Pipe()
        # The stop signals are held while forking: one that comes in between is delivered
        # to the parent once it has a worker to stop, and never to a worker not yet
        # ignoring it (which would print a traceback of its own).
        held = hasattr(signal, "pthread_sigmask") and \
            threading.current_thread() is threading.main_thread()
        old = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS) if held else None
        try:
            proc = ctx.Process(target=_serve, args=(theirs, self.work, os.getpid()),
                               name="scoundrel-kernel", daemon=True)
            proc.start()
            # Known before the signals come through: a stop held back above ends in
            # close(), which must find the worker to kill it.
            self._proc, self._conn = proc, ours
            _LIVE.add(self)
            theirs.close()
        finally:
            if old is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, old)

    def _died(self) -> WorkerDied:
        self.close()
        return WorkerDied("a worker process died (killed by the system or a signal)")

    def _send(self, task: Any) -> None:
        try:
            self._conn.send(task)
        except (BrokenPipeError, ConnectionResetError):  # not our reader leaving: the worker
            raise self._died() from None

    def _receive(self) -> Any:
        try:
            answer = self._conn.recv()
        except (EOFError, ConnectionResetError):
            raise self._died() from None
        if isinstance(answer, _Failed):
            raise answer.err
        return answer

    def map(self, tasks: Iterable[Any]) -> Iterator[Any]:
        """``work(task)`` of each task, in order (the tasks are read lazily)."""
        if not self.available():
            yield from map(self.work, tasks)
            return
        sent = received = 0
        todo = iter(tasks)
        more = True
        try:
            while True:
                while more and sent - received < self.ahead:
                    try:
                        task = next(todo)
                    except StopIteration:
                        more = False
                        break
                    if self._proc is None:  # forked for the first task: none, no fork
                        self._start()
                    self._send(task)
                    sent += 1
                if received == sent:
                    return
                answer = self._receive()
                received += 1
                yield answer
        finally:
            # Stopped with tasks in flight (a signal, an error, a caller that had enough):
            # their results would come back to the next call, so the worker goes now.
            if sent != received:
                self.close()

    def call(self, task: Any) -> Any:
        """``work(task)``, in the worker."""
        return next(iter(self.map([task])))

    def close(self) -> None:
        """Kill the worker (whatever it is doing: its results are not wanted any more)
        and wait for it, so no process is left behind."""
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        _LIVE.discard(self)
        if conn is not None:
            conn.close()
        if proc is not None:
            proc.kill()
            proc.join()


_LIVE: weakref.WeakSet[KernelWorker] = weakref.WeakSet()
"""Workers not closed yet. At exit they are killed first: multiprocessing would send them
SIGTERM, which they ignore, then wait for them forever."""


def _kill_the_rest() -> None:
    for worker in list(_LIVE):
        worker.close()


_REGISTERED: list[bool] = []


def _kill_at_exit() -> None:
    """Register :func:`_kill_the_rest` once, after multiprocessing's own exit function:
    handlers run last registered first, so ours comes before it."""
    if not _REGISTERED:
        import multiprocessing.util  # noqa: F401 -- registers its exit function on import

        atexit.register(_kill_the_rest)
        _REGISTERED.append(True)


def in_worker(work: Callable[[Any], Any], task: Any) -> Any:
    """``work(task)`` run once in a :class:`KernelWorker`: the calling (main) thread waits
    where a stop signal reaches it at once."""
    with KernelWorker(work, ahead=1) as worker:
        return worker.call(task)
