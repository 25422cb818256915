"""The project's version: the one place it is written.

``pyproject.toml`` reads it (``[tool.setuptools.dynamic]``), ``scoundrel_core``
and ``scoundrel_solver`` re-export it as ``__version__``, and every command
prints it with ``--version``.
"""

__version__ = "0.2.0"
