"""A griffe extension for the API reference: docstrings turned into Markdown as they load.

Used by ``mkdocs.yml`` (mkdocstrings' ``extensions`` option); the conversion
itself is :func:`mkdocs_hooks.docstring_markdown`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import griffe

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mkdocs_hooks import docstring_markdown


class DocstringMarkdown(griffe.Extension):
    """Rewrite each object's docstring with :func:`docstring_markdown`."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = docstring_markdown(obj.docstring.value)
