"""Solving a range of seeded deals into a results file that can be stopped and resumed.

A results file holds one JSON object per line: ``SolveResult.to_json()`` plus
the limits the solve ran under (``max_nodes``, ``max_seconds``; ``null`` for
none). What such a file promises:

- **One result per seed and variant.** Rows are read as a set: a seed's result
  counts once per variant and weapon rule however often the file holds it
  (concatenated files, two runs writing at once). A proven row wins over an
  unproven one; among unproven rows, the one with the best line found.
- **Safe to stop at any moment.** A row is written as one whole line (one
  write) as soon as its deal is solved; a last line cut short is ignored when
  read, and removed before anything more is appended.
- **Unproven results are retried.** A run re-solves a seed it holds only
  unproven rows for when its own limit on what stopped them (nodes or
  seconds) is larger or absent; under the same or smaller limits it skips it.
- Rows without a seed (``"seed": null``: a ``--deck`` or ``--state`` result
  appended by hand) are kept but not counted.

The seed range is never listed: seeds are walked one at a time, and only the
file's rows are held in memory.
"""

from __future__ import annotations

import json
import sys
from array import array
from collections import Counter
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import scoundrel_core as sc

from ..exact.result import SolveResult
from ..exact.solve import solve
from ..exact.table import DEFAULT_TABLE_MIB
from .jsonl import LineAppender, ResultsFileError, check_regular, read_json_lines
from .result_rows import BadRow, check_line, check_row, conflict
from .seeds import SeedRange
from .summary import Outcome, Summary, Tally
from .workers import KernelWorker

__all__ = ["Batch", "Limits", "read_numbered_results", "read_results"]

# An unproven row written without its limits: assume it ran under a limit no
# finite limit beats, so only an unlimited run retries it.
_UNKNOWN_LIMIT = sys.float_info.max


@dataclass(frozen=True)
class Limits:
    """The limits a solve runs under; ``None`` is no limit."""

    max_nodes: int | None = None
    max_seconds: float | None = None

    def retries(self, row: dict[str, Any]) -> bool:
        """Whether a solve under these limits may prove what ``row`` (unproven) did not.

        True when the limit that stopped it (``row["stopped_by"]``) is larger
        here, or absent.

        >>> row = {"proven": False, "stopped_by": "max_nodes", "max_nodes": 100}
        >>> Limits().retries(row), Limits(max_nodes=100).retries(row), Limits(200).retries(row)
        (True, False, True)
        """
        stop = row.get("stopped_by")
        if stop == "max_nodes":
            ours: float | None = self.max_nodes
        elif stop == "max_seconds":
            ours = self.max_seconds
        else:  # not a limit this code knows: only a run without limits may do better
            return self.max_nodes is None and self.max_seconds is None
        if ours is None:
            return True
        theirs = row.get(stop)
        if not isinstance(theirs, int | float) or isinstance(theirs, bool):
            theirs = _UNKNOWN_LIMIT
        return ours > theirs


def read_results(path: str | Path) -> Iterator[dict[str, Any]]:
    """The rows of a results file (a missing file has none).

    A last line without its newline that does not parse is a row still being
    written, or cut short: it is skipped. Anything else unreadable is a
    :class:`ResultsFileError` naming the file and line.
    """
    for _, row in read_numbered_results(path):
        yield row


def read_numbered_results(
    path: str | Path, cut_short: Callable[[], None] | None = None
) -> Iterator[tuple[int, dict[str, Any]]]:
    """``read_results`` with each row's line number; ``cut_short()`` is called when a
    cut-short last line is skipped (for callers that report it). Every row passes the
    one validator of :mod:`.result_rows` (what the rules cannot produce is refused,
    naming the file and line), and its line is replayed on its seed's deal: a row whose
    line does not reach its score is refused the same way."""
    for n, row in read_json_lines(path, cut_short):
        where = f"{path}:{n}"
        try:
            yield n, check_line(check_row(row, where), where)
        except BadRow as err:
            raise ResultsFileError(str(err)) from None


class _Columns:
    """The rows of a results file that count for one range and variant, as columns of
    fixed-size numbers (about 40 bytes a row, where a tuple per row took about 450):
    the seed, the rank of the row (proven, best score, minus the upper bound), its time
    and nodes, its line in the file, and whether it settles its seed for a run under
    given limits."""

    def __init__(self) -> None:
        self.seed = array("Q")
        self.proven = array("b")
        self.score = array("h")
        self.neg_bound = array("h")
        self.seconds = array("d")
        self.nodes = array("q")
        self.line = array("q")
        self.settles = array("b")

    def add(self, row: dict[str, Any], line: int, settles: bool) -> None:
        bound = row.get("upper_bound")
        self.seed.append(row["seed"])
        self.proven.append(bool(row["proven"]))
        self.score.append(row["best_score"])
        # check_row keeps scores and bounds in -188..30; none (never read back) ranks last
        self.neg_bound.append(-bound if isinstance(bound, int) else -(2**15))
        self.seconds.append(float(row["seconds"]))
        self.nodes.append(int(row["nodes"]))
        self.line.append(line)
        self.settles.append(settles)

    def numpy(self, name: str) -> np.ndarray[Any, Any]:
        """A column as a numpy array over the same memory (no copy)."""
        column = getattr(self, name)
        return np.frombuffer(column, dtype=np.dtype(column.typecode)) if len(column) else \
            np.zeros(0, dtype=np.dtype(column.typecode))

    def first_conflict(self) -> tuple[int, tuple[int, int], tuple[int, int]] | None:
        """The first row (in file order) of two proven rows of one seed that disagree: its
        seed, then (score, line) of the seed's first proven row and of it."""
        proven = np.flatnonzero(self.numpy("proven"))
        if not len(proven):
            return None
        seed, line, score = (self.numpy(c)[proven] for c in ("seed", "line", "score"))
        order = np.lexsort((line, seed))
        seed, line, score = seed[order], line[order], score[order]
        starts = np.ones(len(seed), dtype=bool)
        starts[1:] = seed[1:] != seed[:-1]
        first = np.maximum.accumulate(np.where(starts, np.arange(len(seed)), 0))
        wrong = np.flatnonzero(score != score[first])
        if not len(wrong):
            return None
        at = wrong[np.argmin(line[wrong])]
        was = first[at]
        return int(seed[at]), (int(score[was]), int(line[was])), (int(score[at]), int(line[at]))

    def settled_seeds(self) -> np.ndarray[Any, Any]:
        """The seeds some row settles, sorted, each once (8 bytes a seed)."""
        return np.unique(self.numpy("seed")[self.numpy("settles").astype(bool)])

    def best(self) -> np.ndarray[Any, Any]:
        """The index of the row that counts for each seed: the best rank, the first of
        equals in file order (as rows were taken one by one before)."""
        seed = self.numpy("seed")
        if not len(seed):
            return np.zeros(0, dtype=np.int64)
        # The rank in one number, larger is better: proven, then the score, then minus the
        # bound (each of them fits in 9 bits once made non-negative). lexsort is stable,
        # so rows of equal rank stay in file order: the first of them is taken.
        rank = self.numpy("proven").astype(np.int32) << 18
        rank |= (self.numpy("score").astype(np.int32) + 2**8) << 9
        rank |= np.clip(self.numpy("neg_bound").astype(np.int32) + 2**8, 0, 2**9 - 1)
        np.negative(rank, out=rank)
        order = np.lexsort((rank, seed))
        del rank
        ordered = seed[order]
        starts = np.ones(len(order), dtype=bool)
        starts[1:] = ordered[1:] != ordered[:-1]
        return order[starts]


def _node_total(nodes: np.ndarray[Any, Any]) -> int:
    """The exact sum of non-negative 64-bit counts (their sum may pass 2**63)."""
    wide = nodes.astype(np.uint64)
    return (int((wide >> np.uint64(32)).sum()) << 32) + int((wide & np.uint64(2**32 - 1)).sum())


class Batch:
    """A range of seeds to solve under some limits, resuming a results file.

    ``todo()`` walks the range lazily, skipping seeds the file already
    settles (a proven row, or an unproven one these limits cannot improve);
    ``run()`` solves them and appends each row as it comes; ``summary()`` adds up
    the one result per seed that counts. Memory is flat in the rows but for a few
    numbers each: the seeds the file settles, 8 bytes each, are all a run keeps;
    reading the file holds about 40 bytes a row for a moment (:class:`_Columns`).
    """

    def __init__(
        self,
        seeds: SeedRange,
        variant: sc.Variant,
        out: str | Path | None = None,
        limits: Limits | None = None,
        table_mib: int = DEFAULT_TABLE_MIB,
    ) -> None:
        self.seeds = seeds
        self.variant = variant
        self.path = Path(out) if out is not None else None
        self.limits = limits or Limits()
        self.table_mib = table_mib
        self._settled_seeds: np.ndarray[Any, Any] = np.zeros(0, dtype=np.uint64)
        # Without a file nothing is resumed and each seed is solved once: results are
        # added up as they come (8 bytes a deal), never kept per seed.
        self._tally = Tally()
        self._sink: LineAppender | None = None
        if self.path is not None:
            check_regular(self.path, output=True)
            self._settled_seeds = self._read().settled_seeds()
            # Opened (created, locked, its end mended) before any work: a file that cannot
            # be written fails now, and the next row starts on a line of its own.
            self._sink = LineAppender(self.path)

    def _read(self) -> _Columns:
        """The file's rows for this range and variant, checked: two proven rows of one seed
        that disagree are refused, naming both lines."""
        assert self.path is not None
        columns = _Columns()
        for n, row in read_numbered_results(self.path):
            seed = row["seed"]
            if (
                seed in self.seeds
                and row.get("variant") == self.variant.name
                and row.get("weapon_rule") == self.variant.weapon_rule
            ):
                columns.add(row, n, bool(row["proven"]) or not self.limits.retries(row))
        clash = columns.first_conflict()
        if clash is not None:
            seed, (old, old_line), (new, new_line) = clash
            raise ResultsFileError(str(conflict(
                seed, str(self.variant), (old, f"{self.path}:{old_line}"),
                (new, f"{self.path}:{new_line}"))))
        return columns

    @property
    def todo_count(self) -> int:
        """How many seeds of the range ``run()`` will solve."""
        return self.seeds.count - len(self._settled_seeds)

    def todo(self) -> Iterator[int]:
        """The seeds of the range still to solve, in order, made lazily."""
        settled = self._settled_seeds
        i, n = 0, len(settled)
        for seed in self.seeds:
            # Both in order: one pointer walks the settled seeds beside the range.
            while i < n and int(settled[i]) < seed:
                i += 1
            if i < n and int(settled[i]) == seed:
                continue
            yield seed

    @property
    def written(self) -> int:
        """The rows this run saved: the appender's own count, which changes together with
        the file (a stop signal between a row's write and a count kept here would
        report one row fewer than the file holds)."""
        return 0 if self._sink is None else self._sink.appended

    def _solve(self, seed: int) -> SolveResult:
        return solve(seed, variant=self.variant.name, weapon_rule=self.variant.weapon_rule,
                     max_nodes=self.limits.max_nodes, max_seconds=self.limits.max_seconds,
                     table_mib=self.table_mib)

    def run(self, worker: bool = False) -> Generator[SolveResult, None, None]:
        """Solve every seed of ``todo()``, appending each row to the file as it comes.

        With ``worker`` the deals are solved by a :class:`~.workers.KernelWorker` (a few
        seeds ahead) and this process only writes the rows, so a stop signal reaches it
        while a deal is being solved. A row that cannot be written whole
        (:class:`~.jsonl.DiskFull`) stops the run; ``written`` counts the rows saved
        before it."""
        kernels = KernelWorker(self._solve) if worker else None
        try:
            solved = kernels.map(self.todo()) if kernels else map(self._solve, self.todo())
            for r in solved:
                row = {**r.to_json(), "max_nodes": self.limits.max_nodes,
                       "max_seconds": self.limits.max_seconds}
                if self._sink is not None:  # counted when the file is read at the end
                    self._sink.append(json.dumps(row, allow_nan=False))
                else:
                    self._tally.add(Outcome(score=r.best_score, won=r.best_score > 0,
                                            seconds=float(row["seconds"]), proven=r.proven,
                                            nodes=int(row["nodes"])))
                yield r
        finally:
            if kernels is not None:
                kernels.close()
            if self._sink is not None:
                self._sink.close()

    def results(self) -> list[Outcome]:
        """One result per seed of the range, from the file as it is now (other runs may
        have added to it); an object per seed: for a summary, see :meth:`summary`."""
        if self.path is None:  # nothing is kept per seed without a file (as before)
            return []
        columns = self._read()
        best = columns.best()
        score, proven, seconds, nodes = (columns.numpy(c)[best].tolist()
                                         for c in ("score", "proven", "seconds", "nodes"))
        return [Outcome(score=sc_, won=sc_ > 0, seconds=secs, proven=bool(p), nodes=n)
                for sc_, p, secs, n in zip(score, proven, seconds, nodes, strict=True)]

    def summary(self) -> Summary:
        """What the range adds up to: one result per seed, from the file as it is now (read
        again, so rows other runs added count), or without a file this run's results,
        added up as they came (memory flat in rows but for 8 bytes a deal)."""
        if self.path is None:
            return self._tally.summary()
        columns = self._read()
        best = columns.best()
        score = columns.numpy("score")[best]
        proven = columns.numpy("proven")[best].astype(bool)
        seconds = np.sort(columns.numpy("seconds")[best])
        nodes = _node_total(columns.numpy("nodes")[best])
        del columns, best  # the numbers of the rows that count are all a summary needs
        won = score > 0
        values, counts = np.unique(score, return_counts=True)
        return Summary(
            deals=len(score), wins=int(won.sum()), proven=int(proven.sum()),
            scores=Counter(dict(zip(values.tolist(), counts.tolist(), strict=True))),
            seconds=array("d", seconds.tobytes()), nodes=nodes,
            undecided=int((~(proven | won)).sum()))
