"""Where a result came from: the file's provenance, and which revision of a search made it.

- :mod:`.files`: the command, commit, date and package version stamped into every
  published file (Parquet metadata, CSV comment lines).
- :mod:`.fingerprint`: the one way a search names its revision. The exact solver
  and the fair agent each declare a version, and a *fingerprint* (what the search
  answers on a committed set of positions) shows the declaration is current: the
  version changes when behaviour does, never for a refactor or a comment.

>>> p = provenance(["scoundrel-census", "export", "--out", "x.parquet"])
>>> p["command"], sorted(p)
('scoundrel-census export --out x.parquet', ['command', 'commit', 'date', 'version'])
>>> csv_header(p).splitlines()[0]
'# command: scoundrel-census export --out x.parquet'
"""

from __future__ import annotations

from .files import (
    PREFIX,
    csv_header,
    parquet_metadata,
    provenance,
    read_provenance,
    script_provenance,
)

__all__ = [
    "PREFIX",
    "csv_header",
    "parquet_metadata",
    "provenance",
    "read_provenance",
    "script_provenance",
]
