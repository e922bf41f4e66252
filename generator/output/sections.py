"""Sections: groups of files a build may take whole from the previous tree.

A section's files follow from neither the series nor the documents: the register and its
limits (API files and pages), the PLZ mapping's exports and catalogue, the OpenAPI
document, the A-Z pages of places and the search index. What they show comes from the
tables every zone shares and from the code, settings and date, so when the previous
build's derive key (`generator.incremental.reuse.derive_key`) and render key
(`generator.incremental.render_plan.render_key`) are this build's, they are the previous
tree's files.
A daily update then renders none of them. Each build records which files each section
rendered (`build-state/sections.json`), so the next knows what to keep; tests compare
builds that kept sections with full builds, byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import polars as pl


@dataclass
class Sections:
    """Which sections to keep, and the files of every section of this build."""

    kept: Mapping[str, Sequence[str]] | None = None
    """The previous build's files of the sections to keep; None: render them all."""
    paths: dict[str, list[str]] = field(default_factory=dict)
    """The files of every section of this build, rendered or kept, in order."""

    def files(
        self, name: str, render: Callable[[], Iterable[tuple[str, bytes]]]
    ) -> Iterator[tuple[str, bytes | None]]:
        """Yield the section's files: (path, bytes) rendered, or (path, None) to keep."""
        if self.kept is not None and name in self.kept:
            self.paths[name] = list(self.kept[name])
            for path in self.paths[name]:
                yield path, None
            return
        paths = self.paths[name] = []
        for path, payload in render():
            paths.append(path)
            yield path, payload


def in_order(
    paths: Sequence[str], chosen: Sequence[bool], rendered: Iterable[tuple[str, bytes]]
) -> Iterator[tuple[str, bytes | None]]:
    """Yield the files at `paths` in order: rendered where `chosen`, else (path, None) to keep.

    `rendered` are the chosen files, in the same order.
    """
    files = iter(rendered)
    for path, render in zip(paths, chosen, strict=True):
        if not render:
            yield path, None
            continue
        got = next(files)
        if got[0] != path:
            raise AssertionError(f"rendered {got[0]} where {path} was due")
        yield got


def chosen_rows(frame: pl.DataFrame, key: str, chosen: frozenset[Any] | None) -> pl.Series:
    """Whether each row's `key` is among the `chosen` (every row when None)."""
    keys = frame.get_column(key)
    if chosen is None:
        return pl.repeat(True, keys.len(), eager=True)
    return keys.is_in(pl.Series(sorted(chosen), dtype=keys.dtype).implode())
