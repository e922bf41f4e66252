"""Where a build keeps what it needs beside the published tree.

Free of polars, like `generator.incremental.allocator`, which looks here before polars is imported.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

ZONES_STATE = "zones.parquet"
"""Per zone its fingerprint and newest feed day, and in its metadata what the build was made
of (`generator.incremental.render_plan`); its presence says the rest of the state is whole."""


def state_dir(out: Path) -> Path:
    """Return the build's own directory for a tree: `build` -> `build-state` beside it."""
    out = Path(out).absolute()
    return out.parent / (out.name + "-state")


def staging_dir(out: Path) -> Path:
    """Return where the tree a swap replaced waits for the next build: `.build.staging`."""
    out = Path(out).absolute()
    return out.with_name(f".{out.name}.staging")


@dataclass(frozen=True)
class Basis:
    """What a build's source prints were made of: its code and the series' row groups."""

    code: str
    schema: str
    groups: list[tuple[str, int]]
    """Each row group of the series file in order: the digest of its bytes, and its rows."""
    path: Path = field(default=Path(), compare=False)
    """The series file (not kept: the next build has its own)."""

    def to_json(self) -> str:
        return json.dumps([self.code, self.schema, self.groups])

    @classmethod
    def from_json(cls, text: str) -> Basis | None:
        try:
            code, schema, groups = json.loads(text)
            return cls(str(code), str(schema), [(str(d), int(n)) for d, n in groups])
        except (ValueError, TypeError):
            return None
