"""The digest of what every file of a build depends on besides the data.

Free of polars: the build command asks for it before polars is imported
(`generator.incremental.allocator`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path
from typing import Any

import generator
from generator import __version__
from generator.config import Config
from generator.site import assets as site_assets


def code_digest(as_of: dt.date, config: Config) -> str:
    """Hash what every file of a build depends on besides the data.

    That is the code, templates and assets, the packaged reference data, the settings and
    the date.
    """
    h = hashlib.sha256()
    h.update(f"{__version__}|{as_of.isoformat()}|{config!r}".encode())
    # The code and templates count as inputs too: a changed generator means new output.
    package = Path(generator.__file__).parent
    sources = [
        p
        for p in package.rglob("*")
        if p.suffix in (".py", ".csv", ".html", ".css", ".js", ".svg", ".txt")
    ]
    for asset_dir in (site_assets.templates_dir(), site_assets.static_dir()):
        sources += list(asset_dir.rglob("*"))
    hash_files(h, sources)
    return h.hexdigest()


def hash_files(h: Any, sources: list[Path]) -> None:
    """Feed each file's name and bytes to `h`, in the order of their paths."""
    for path in sorted(set(sources)):
        if path.is_file() and "__pycache__" not in path.parts:
            h.update(str(path.name).encode())
            with path.open("rb") as fh:
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    h.update(chunk)
