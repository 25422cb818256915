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
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import scoundrel_core as sc

from ..exact.result import SolveResult
from ..exact.solve import solve
from ..exact.table import DEFAULT_TABLE_MIB
from .jsonl import LineAppender, ResultsFileError, check_regular, read_json_lines
from .result_rows import BadRow, check_line, check_row, conflict
from .seeds import SeedRange
from .summary import Outcome, Summary, Tally, summarize
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


def _outcome(rank: tuple[bool, int, int], seconds: float, nodes: int) -> Outcome:
    proven, score, _ = rank
    return Outcome(score=score, won=score > 0, seconds=seconds, proven=proven, nodes=nodes)


def _rank(row: dict[str, Any]) -> tuple[bool, int, int]:
    """Proven beats unproven; then the higher score found, then the tighter bound."""
    bound = row.get("upper_bound")
    return (row["proven"], row["best_score"], -bound if isinstance(bound, int) else -(10**9))


class Batch:
    """A range of seeds to solve under some limits, resuming a results file.

    ``todo()`` walks the range lazily, skipping seeds the file already
    settles (a proven row, or an unproven one these limits cannot improve);
    ``run()`` solves them and appends each row as it comes; ``results()`` is
    the one result per seed that counts. Only that much is kept per seed (not
    whole rows), so a file of millions of rows can be resumed.
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
        # Per seed of the range, one flat tuple (no objects: about half the memory of an
        # Outcome per row): the row that counts as (proven, score, -bound, seconds, nodes,
        # line), and whether this run skips the seed.
        self._best: dict[int, tuple[bool, int, int, float, int, int, bool]] = {}
        self._settled = 0
        # Without a file nothing is resumed and each seed is solved once: results are
        # added up as they come (8 bytes a deal), never kept per seed.
        self._tally = Tally()
        self._sink: LineAppender | None = None
        if self.path is not None:
            check_regular(self.path, output=True)
            self._read()
            # Opened (created, locked, its end mended) before any work: a file that cannot
            # be written fails now, and the next row starts on a line of its own.
            self._sink = LineAppender(self.path)

    def _read(self) -> None:
        assert self.path is not None
        for n, row in read_numbered_results(self.path):
            self._take(row, n)

    def _take(self, row: dict[str, Any], line: int = 0) -> None:
        seed = row["seed"]
        if (
            seed not in self.seeds
            or row.get("variant") != self.variant.name
            or row.get("weapon_rule") != self.variant.weapon_rule
        ):
            return
        rank = _rank(row)
        old = self._best.get(seed)
        if old is not None and rank[0] and old[0] and rank[1] != old[1]:
            raise ResultsFileError(str(conflict(
                seed, str(self.variant), (old[1], f"{self.path}:{old[5]}"),
                (rank[1], f"{self.path}:{line}"))))
        settles = bool(row["proven"]) or not self.limits.retries(row)
        was_settled = old is not None and old[6]
        if old is None or rank > old[:3]:
            self._best[seed] = (*rank, float(row["seconds"]), int(row["nodes"]), line,
                                settles or was_settled)
        elif settles and not was_settled:
            self._best[seed] = (*old[:6], True)
        if (settles or was_settled) and not was_settled:
            self._settled += 1

    @property
    def todo_count(self) -> int:
        """How many seeds of the range ``run()`` will solve."""
        return self.seeds.count - self._settled

    def todo(self) -> Iterator[int]:
        """The seeds of the range still to solve, in order, made lazily."""
        best = self._best
        return (seed for seed in self.seeds if not (seed in best and best[seed][6]))

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
                if self._sink is not None:
                    self._sink.append(json.dumps(row, allow_nan=False))
                    self._take(row)
                else:
                    self._tally.add(_outcome(_rank(row), float(row["seconds"]),
                                             int(row["nodes"])))
                yield r
        finally:
            if kernels is not None:
                kernels.close()
            if self._sink is not None:
                self._sink.close()

    def results(self) -> list[Outcome]:
        """One result per seed of the range, from the file as it is now (other runs may
        have added to it); without a file, see :meth:`summary`."""
        if self.path is not None:
            self._best.clear()
            self._settled = 0
            self._read()
        return [_outcome((proven, score, 0), secs, nodes)
                for proven, score, _, secs, nodes, _, _ in self._best.values()]

    def summary(self) -> Summary:
        """What the range adds up to: one result per seed, from the file as it is now, or
        without a file this run's results, added up as they came (memory flat in rows
        but for 8 bytes a deal)."""
        if self.path is None:
            return self._tally.summary()
        return summarize(self.results())
