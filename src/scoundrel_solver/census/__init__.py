"""The census: exact results for whole ranges of deals, solved on Dask, kept in SQLite.

``store`` (the database), ``work`` (what a worker runs), ``engine`` (the Dask
driver), ``importer`` (results files of ``scoundrel-solve --seeds --out``),
``summary`` (shares with Wilson intervals) and ``export`` (Parquet, CSV).
Dask and pyarrow are optional (the ``census`` extra) and imported only when used.
"""

from .errors import CensusError
from .store import COLUMNS, CensusRow, Store

__all__ = ["COLUMNS", "CensusError", "CensusRow", "Store"]
