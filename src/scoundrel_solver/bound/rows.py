"""The rows of ``scoundrel-bound --out FILE`` and what they add up to.

Each line is one JSON object (``"format": "scoundrel-bound/1"``): the rule
set, the settings (``steps`` penalised, ``value`` the ``V`` named,
``max_nodes`` of the exact sub-solves), the versions of the code that proved
it (``bound_version`` of the bound itself, :mod:`.version`; ``solver_version``
of the exact solver it asks; ``agent_version`` of the fair agent, whose leaf
the one-room ``V`` reads), the seed, and the deal's
:class:`~.deal.DealBound`: its ``term`` of the bound (``best - opening``) and
what it cost. The file keeps the promises of a solver results
file (:mod:`scoundrel_solver.runs.jsonl`): a row is written whole as soon as
its deal is done, under the file's lock; a stop at any moment keeps every
finished deal; the same command resumes with the seeds the file does not hold
for those settings. Rows of other settings are kept, not counted. A file
holding a row of other versions is refused (:func:`finished_deals`): numbers
proven by two revisions of the code must not be summed as one bound. Rows
written before ``bound_version`` existed have none; they read as before, and
a summary keeps them apart from stamped rows.

The summary of a set of rows (:func:`summarize_bound`) is the mean of the
deals' terms with a one-sided 95% upper limit from the sample variance (a
deal's term may exceed 1 or fall below 0, so no binomial interval applies),
beside the share of the same deals won with the dungeon seen.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import scoundrel_core as sc

from ..exact.version import solver_version
from ..fair.version import agent_version
from ..runs.jsonl import ResultsFileError, read_json_lines
from ..runs.summary import wilson
from .deal import DealBound
from .version import bound_version

__all__ = ["BOUND_FORMAT", "VERSIONS", "BoundSummary", "bound_row", "finished_deals",
           "read_bound_rows", "summarize_bound"]

BOUND_FORMAT: Final = "scoundrel-bound/1"
"""The ``format`` field of every row of ``scoundrel-bound --out``."""

VERSIONS: Final = ("bound_version", "solver_version", "agent_version")
"""The fields naming the code that proved a row."""
_NUMBERS: Final = ("term", "best", "opening", "seconds")
_COUNTS: Final = ("unproven", "solves", "chance_nodes", "decisions")


def settings_of(variant: sc.Variant, steps: int, value: str,
                max_nodes: int | None) -> dict[str, Any]:
    """The fields that say which bound a row belongs to, with the versions of the code
    that proves it (:data:`VERSIONS`)."""
    return {"variant": variant.name, "weapon_rule": variant.weapon_rule, "steps": steps,
            "value": value, "max_nodes": max_nodes, "bound_version": bound_version(),
            "solver_version": solver_version(), "agent_version": agent_version()}


def bound_row(settings: Mapping[str, Any], seed: int, deal: DealBound) -> dict[str, Any]:
    """The line written for one finished deal."""
    return {"format": BOUND_FORMAT, **settings, "seed": seed,
            "term": deal.value, "best": deal.best, "opening": deal.opening,
            "winnable": deal.winnable, "unproven": deal.unproven, "solves": deal.solves,
            "chance_nodes": deal.chance_nodes, "decisions": deal.decisions,
            "seconds": round(deal.seconds, 6)}


def _checked(row: Any, where: str) -> dict[str, Any]:
    """A row as the summary counts it, or a ResultsFileError naming what no deal gives."""
    if not isinstance(row, dict) or row.get("format") != BOUND_FORMAT:
        raise ResultsFileError(f"{where}: not a {BOUND_FORMAT} row; is this a file of "
                               "scoundrel-bound --out?")
    seed = row.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= sc.MAX_SEED:
        raise ResultsFileError(f"{where}: seed {sc.excerpt(seed, 40)} is not a seed")
    for key in _NUMBERS:
        x = row.get(key)
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
            raise ResultsFileError(f"{where}: {key} {sc.excerpt(x, 40)} is not a finite number")
    for key in _COUNTS:
        x = row.get(key)
        if isinstance(x, bool) or not isinstance(x, int) or x < 0:
            raise ResultsFileError(f"{where}: {key} {sc.excerpt(x, 40)} is not a count")
    if not isinstance(row.get("winnable"), bool):
        raise ResultsFileError(f"{where}: winnable {sc.excerpt(row.get('winnable'), 20)} "
                               "is not true or false")
    if not math.isclose(row["term"], row["best"] - row["opening"], abs_tol=1e-9):
        raise ResultsFileError(f"{where}: term is not best - opening")
    return row


def read_bound_rows(path: str | Path) -> list[dict[str, Any]]:
    """Every row of a ``scoundrel-bound --out`` file, checked (a missing file has none)."""
    return [_checked(row, f"{path}:{n}") for n, row in read_json_lines(path)]


def _versions_text(row: Mapping[str, Any]) -> str:
    if row.get("bound_version") is None:
        return (f"code older than the bound's version stamp (exact "
                f"{row.get('solver_version')}, fair {row.get('agent_version')})")
    return ", ".join(f"{k.split('_')[0]} {row.get(k)}" for k in VERSIONS)


def finished_deals(path: Path, settings: Mapping[str, Any], seeds: Any) -> set[int]:
    """The seeds (in ``seeds``) the file holds for these settings.

    Raises ResultsFileError, naming the file and the versions, when a row of it was
    proven by other versions of the code than ``settings`` names: a resumed run
    appends only to a file of its own versions."""
    rows = read_bound_rows(path)
    ours = {k: settings.get(k) for k in VERSIONS}
    for n, row in enumerate(rows, 1):
        if any(row.get(k) != v for k, v in ours.items()):
            raise ResultsFileError(
                f"results file {str(path)!r} holds rows proven by other code (row {n}: "
                f"{_versions_text(row)}; this is {_versions_text(ours)}): write to "
                "another file, a bound's rows must come from one version")
    return {row["seed"] for row in rows
            if row["seed"] in seeds and all(row.get(k) == v for k, v in settings.items())}


def _t95(df: int) -> float:
    """The one-sided 95% quantile of Student's t with ``df`` degrees of freedom
    (Cornish-Fisher expansion about the normal: within 0.002 from 10 degrees up,
    and the summary needs at least 2 deals)."""
    z = statistics.NormalDist().inv_cdf(0.95)
    d = float(max(df, 1))
    return (z + (z**3 + z) / (4 * d) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * d * d)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * d**3))


@dataclass(frozen=True)
class BoundSummary:
    """One bound's rows added up: ``mean`` of the deals' terms and its one-sided 95%
    ``upper`` limit (None with fewer than two deals), the perfect-information share
    with its 95% Wilson interval, and the cost."""

    variant: str
    weapon_rule: str
    steps: int
    value: str
    deals: int
    mean: float
    sd: float
    upper: float | None
    perfect_share: float
    perfect_interval: tuple[float, float]
    unproven: int
    seconds_per_deal: float

    def as_dict(self) -> dict[str, Any]:
        """The summary as ``--summary --json`` prints it."""
        return {"variant": self.variant, "weapon_rule": self.weapon_rule, "steps": self.steps,
                "value": self.value, "deals": self.deals, "bound": self.mean, "sd": self.sd,
                "bound_upper95": self.upper, "perfect_share": self.perfect_share,
                "perfect_interval95": list(self.perfect_interval), "unproven": self.unproven,
                "seconds_per_deal": self.seconds_per_deal}


def summarize_bound(rows: Iterable[Mapping[str, Any]]) -> list[BoundSummary]:
    """One summary per bound (rule set, steps, value, node limit and versions) in the
    rows, each seed counted once (its first row)."""
    groups: dict[tuple[Any, ...], dict[int, Mapping[str, Any]]] = {}
    for row in rows:
        key = tuple(row.get(k) for k in ("variant", "weapon_rule", "steps", "value",
                                         "max_nodes", *VERSIONS))
        groups.setdefault(key, {}).setdefault(row["seed"], row)
    out = []
    for key, by_seed in groups.items():
        deals = list(by_seed.values())
        n = len(deals)
        values = [float(r["term"]) for r in deals]
        mean = math.fsum(values) / n
        sd = statistics.stdev(values) if n > 1 else 0.0
        upper = mean + _t95(n - 1) * sd / math.sqrt(n) if n > 1 else None
        won = sum(bool(r["winnable"]) for r in deals)
        out.append(BoundSummary(
            variant=str(key[0]), weapon_rule=str(key[1]), steps=int(key[2]), value=str(key[3]),
            deals=n, mean=mean, sd=sd, upper=upper, perfect_share=won / n,
            perfect_interval=wilson(won, n), unproven=sum(int(r["unproven"]) for r in deals),
            seconds_per_deal=math.fsum(float(r["seconds"]) for r in deals) / n))
    return out
