"""Every zone's current values: held in memory, or partly left in the previous build's files.

A full build holds every zone's current values: a million rows nationally, with nested
limits, sums and sample points. A daily update derives a few zones' values and takes the
others' from the previous build (`generator.incremental.reuse`), whose runs of current
values stay on
disk until asked for. The zones whose files are rendered read their whole rows (`of`); the
pieces that summarise every zone (the map, the national feed, the sitemap's dates) read a
few columns of the rows they summarise, once (`national`), which the previous build kept
apart (`national_rows`). Reading every row and column took about half a CPU-second and 435
MB that a daily update needs for nothing else.

Whichever way they are read, the rows come in zone order and a zone's rows in the order
derive made them: as one frame of every zone holds them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import polars as pl

from generator.api.verdicts import EXCEEDS_LIMIT
from generator.frames.slices import merged, rows_of

KEY = "zone_id"
NATIONAL = [
    KEY,
    "parameter",
    "name_de",
    "sampled_at",
    "value_text",
    "unit",
    "qualifier",
    "normalized_value",
    "normalized_reporting_limit",
    "normalized_unit",
    "origin",
    "state",
    "limit",
]
"""The columns the pieces that summarise every zone read: the map's classes, the national
feed's exceedances (about a third of the bytes of every column)."""
NATIONAL_PARAMETERS = (
    "pfas_summe_20",
    "nitrat",
    "gesamthaerte",
    "haertebereich",
    "summe_erdalkalien",
    "pfas_summe_4",
    "blei",
    "uran",
)
"""The parameters the map draws (`site.maps`) and reads its hardness from (`site.answer`),
and those every zone is compared in (`generator.compare.COMPARED`)."""
NATIONAL_ROWS = pl.col("parameter").is_in(NATIONAL_PARAMETERS) | (pl.col("state") == EXCEEDS_LIMIT)
"""The rows those pieces read: the map's parameters', and every exceedance of a Grenzwert
(the national feed's). Nationally one row in seventeen: a daily update reads them from a
file of their own (`national_rows`), not from the million rows of the runs."""


class Run(NamedTuple):
    """A file of current values: the rows of its zones `first` to `last`, `rows` of them."""

    first: int
    last: int
    rows: int
    path: Path


@dataclass(frozen=True)
class ZoneValues:
    """The current values of every zone (`Derived.current_values`)."""

    held: pl.DataFrame
    """The rows this build derived, sorted by zone: every zone's, unless `runs` hold some."""
    runs: tuple[Run, ...] = ()
    """Files of an earlier build's rows, in zone order; their rows of the `kept` zones count."""
    kept: pl.Series | None = None
    """The zones whose rows are those of `runs`, sorted; none of them has rows in `held`."""
    national_rows: pl.LazyFrame | None = None
    """The `national` rows of every zone of the build that wrote `runs`, in zone order: of the
    `kept` zones they count. None: they are read from the runs."""

    def __post_init__(self) -> None:
        # A zone with rows on both sides would be read twice by `of` and `lazy`, and once
        # by `all`: taken values and derived ones must never meet (`derive` keeps them apart).
        if self.kept is not None and self.held.get_column(KEY).is_in(self.kept.implode()).any():
            raise ValueError("zones both derived and kept: their current values would mix")

    @property
    def whole(self) -> bool:
        """Whether every zone's rows are held (nothing is read from files)."""
        return not self.runs

    def all(self) -> pl.DataFrame:
        """Return every zone's rows, every column (read from the runs, if any)."""
        return self.held if self.whole else self._merged(self.held)

    def lazy(self) -> pl.LazyFrame:
        """Return every zone's rows, lazily: of the runs, only the columns selected are read."""
        if self.whole:
            return self.held.lazy()
        stored = pl.scan_ipc([run.path for run in self.runs]).filter(self._is_kept())
        return self._in_order(stored, self.held.lazy())

    def national(self) -> pl.LazyFrame:
        """Return the `NATIONAL` columns of every zone's `NATIONAL_ROWS`, lazily.

        What summarises every zone reads these: of the kept zones they are read once, when
        first asked for, not once for each piece.
        """
        if self.whole:
            return self.held.lazy().filter(NATIONAL_ROWS).select(NATIONAL)
        return self._national.lazy()

    @functools.cached_property
    def _national(self) -> pl.DataFrame:
        assert self.kept is not None
        held = self.held.filter(NATIONAL_ROWS).select(NATIONAL)
        if self.national_rows is None:
            stored = self._stored(NATIONAL).filter(NATIONAL_ROWS)
        else:
            stored = self.national_rows.select(NATIONAL)
        return merged(stored.collect(), self.kept, held)

    def _merged(self, held: pl.DataFrame) -> pl.DataFrame:
        """Return every zone's rows of the columns of `held`: the runs' with `held` spliced in."""
        assert self.kept is not None
        return merged(self._stored(held.columns).collect(), self.kept, held)

    def _stored(self, columns: list[str]) -> pl.LazyFrame:
        return pl.scan_ipc([run.path for run in self.runs]).select(columns)

    def of(self, zone_ids: pl.Series) -> pl.DataFrame:
        """Return the rows of these zones, every column; `zone_ids` must be sorted and distinct.

        Of the runs, only the files that hold one of them are read.
        """
        zone_ids = zone_ids.cast(self.held.schema[KEY])
        # One chunk, as a filter gives: polars' string functions failed on the slices of a
        # string column (an index out of bounds) in a lazy query over them.
        own = rows_of(self.held, KEY, zone_ids).rechunk()
        if self.whole:
            return own
        assert self.kept is not None
        wanted = zone_ids.filter(zone_ids.is_in(self.kept.implode()))
        files = [run.path for run in self.runs if wanted.is_between(run.first, run.last).any()]
        if not files:
            return own
        stored = rows_of(pl.scan_ipc(files).collect(), KEY, wanted)
        return self._in_order(stored.lazy(), own.lazy()).collect()

    def _is_kept(self) -> pl.Expr:
        assert self.kept is not None
        return pl.col(KEY).is_in(self.kept.implode())

    @staticmethod
    def _in_order(stored: pl.LazyFrame, own: pl.LazyFrame) -> pl.LazyFrame:
        # A zone's rows are all in one of the two, in their order: a stable sort by zone
        # interleaves them as one frame of every zone holds them.
        return pl.concat([stored, own], how="vertical_relaxed").sort(KEY, maintain_order=True)
