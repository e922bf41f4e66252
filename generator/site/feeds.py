"""Atom feeds: one per zone and one for the whole country, so people need not come back to look.

A zone's feed has an entry for
- every publication its values come from (dated by the document's edition),
- every parameter whose verdict changed with its latest sample (dated by that sample): the
  previous sample is assessed against the same limits and the same publication cadence as
  the latest (which points are too old to decide), so only the water changed, not the
  yardstick,
- every limit of its parameters that comes into force after the ordinance did: dated by the
  day it applies when that day has come; an announced one by the day the ordinance that
  announces it came into force (the earliest `valid_from` of the register).

The national feed has the exceedances of Grenzwerte (dated by their sample) and, per zone
and publication, the zones with new values (dated by the edition). Every date comes from
the data, so the same input gives the same bytes. Feeds keep the newest `MAX_ENTRIES`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from xml.sax.saxutils import escape

import polars as pl

from generator.api import verdicts
from generator.api.license_resources import odbl_attribution
from generator.config import Config
from generator.derive import Derived
from generator.frames import batches
from generator.frames.compact import as_text
from generator.ordinance.current import newest_rows, standing
from generator.site import text, urls
from generator.values import wording
from generator.values.published import READING, with_numbers

MAX_ENTRIES = 50
"""Entries of a zone's feed (the newest)."""
MAX_NATIONAL = 200
"""Entries of the national feed (the newest)."""
ASSESSED_ROWS = 100_000
"""Earlier samples assessed at a time (`verdict_changes`)."""
FEED_ZONES = 1000
"""Zones whose feeds are written as text at a time (`feed_files`)."""
TITLE = "Trinkwasserdaten: Neuigkeiten"

_CATEGORY = {s: v.category for s, v in verdicts.STATES.items()}
_CATEGORY_WORDS = {
    verdicts.EXCEEDS_LIMIT: "über dem Grenzwert",
    verdicts.EXCEEDS_OTHER: "über einem anderen Wert (kein Grenzwert)",
    verdicts.COMPLIES: "eingehalten",
    verdicts.NOT_ASSESSABLE: "nicht bewertbar",
    verdicts.NO_COMPARISON: "ohne Vergleichswert",
    verdicts.NOT_MEASURED: "nicht gemessen",
}
_ENTRY = ("zone_id", "key", "day", "title", "summary")


def _stamp(day: dt.date) -> str:
    return f"{day.isoformat()}T00:00:00Z"


def _publications(d: Derived) -> pl.DataFrame:
    docs = d.documents.select("document_id", "title", "edition_date")
    return (
        d.zone_documents.filter(pl.col("samples") > 0)
        .join(docs, on="document_id")
        .select(
            "zone_id",
            pl.format("dokument-{}", "document_id").alias("key"),
            pl.col("edition_date").alias("day"),
            pl.format("Neue Veröffentlichung: {}", "title").alias("title"),
            pl.format(
                "{} mit {} Werten für dieses Versorgungsgebiet, Stand {}.",
                "title",
                "samples",
                text.date_expr(pl.col("edition_date")),
            ).alias("summary"),
        )
    )


def verdict_changes(d: Derived, as_of: dt.date) -> pl.LazyFrame:
    """Return where the latest sample's verdict differs from the previous sample's.

    Zone, parameter, dates and categories; both samples assessed against the limits valid
    on `as_of`. Lazy: the caller's choice of columns is all that is taken from the current
    values (nearly all of a million rows pass the filter).
    """
    # Only what choosing and assessing a sample needs: the series is the largest frame. The
    # whole history before the latest sample is most of 10 million rows; only the chosen
    # earlier samples are gathered (`standing` chooses among them again).
    series = ["zone_id", "parameter"]
    chosen = newest_rows(d.measurements, as_of, earlier=True)
    earlier = d.measurements.select(
        pl.col(*series, "sampled_at", "statistic", "sample_point", "document_id", READING).gather(
            chosen
        )
    )
    earlier = as_text(with_numbers(earlier, d.readings))
    del chosen
    # Assessed in runs of zones too: the verdicts of a million samples at once held a gigabyte.
    previous = batches.per_run(
        earlier,
        lambda run: standing(run, d.limits, d.parameters, as_of, d.cadence_months).select(
            "zone_id",
            "parameter",
            pl.col("state").replace_strict(_CATEGORY, default=None).alias("before"),
            pl.col("sampled_at").alias("before_at"),
        ),
        ASSESSED_ROWS,
    )
    # Without the nested columns no entry shows: a filter copies every column it keeps.
    values = d.current_values.lazy()
    nested = [c for c, t in values.collect_schema().items() if isinstance(t, pl.Struct | pl.List)]
    now = wording.with_readings(
        values.drop(nested).filter(
            (pl.col("origin") == "published") & pl.col("value_text").is_not_null()
        )
    ).with_columns(pl.col("state").replace_strict(_CATEGORY, default=None).alias("after"))
    return now.join(previous.lazy(), on=["zone_id", "parameter"], maintain_order="left").filter(
        (pl.col("before") != pl.col("after"))
        & pl.col("before").is_in([verdicts.NOT_MEASURED, verdicts.NO_COMPARISON]).not_()
    )


def _changes(d: Derived, as_of: dt.date) -> pl.DataFrame:
    words = pl.col("after").replace_strict(_CATEGORY_WORDS)
    name = pl.col("name_de").fill_null(pl.col("parameter"))
    return (
        verdict_changes(d, as_of)
        .select(
            "zone_id",
            pl.format("bewertung-{}-{}", "parameter", text.date_expr(pl.col("sampled_at"))).alias(
                "key"
            ),
            pl.col("sampled_at").alias("day"),
            pl.format("{}: jetzt {}", name, words).alias("title"),
            pl.format(
                "Probe vom {}: {} ({}). Die Probe davor vom {} war {}.",
                text.date_expr(pl.col("sampled_at")),
                name,
                pl.col(wording.SHOWN),
                text.date_expr(pl.col("before_at")),
                pl.col("before").replace_strict(_CATEGORY_WORDS),
            ).alias("summary"),
        )
        .collect()
    )


def _limits(d: Derived, as_of: dt.date) -> pl.DataFrame:
    start = d.limits["valid_from"].min()
    if start is None:
        return pl.DataFrame(schema=dict.fromkeys(_ENTRY, pl.String)).cast(
            {"zone_id": pl.Int64, "day": pl.Date}
        )
    later = d.limits.filter(pl.col("valid_from") > start).select(
        pl.col("code").alias("parameter"),
        "valid_from",
        "kind",
        "value",
        "value_min",
        "value_max",
        "requirement",
        "unit",
    )
    # Lazy, so that only the five columns are taken from the current values, not all of them.
    values = (
        wording.with_readings(d.current_values.lazy().filter(pl.col("value_text").is_not_null()))
        .select("zone_id", "parameter", "name_de", wording.SHOWN, "sampled_at")
        .collect()
    )
    announced = pl.col("valid_from") > as_of
    limit_words = text.limit_expr(
        pl.struct("kind", "value", "value_min", "value_max", "requirement", "unit")
    )
    return values.join(later, on="parameter").select(
        "zone_id",
        pl.format("grenzwert-{}-{}", "parameter", pl.col("valid_from").cast(pl.String)).alias(
            "key"
        ),
        pl.when(announced).then(pl.lit(start)).otherwise(pl.col("valid_from")).alias("day"),
        pl.format(
            "{}: {} {} {}",
            pl.col("name_de"),
            limit_words,
            pl.when(announced).then(pl.lit("gilt ab")).otherwise(pl.lit("gilt seit")),
            text.date_expr(pl.col("valid_from")),
        ).alias("title"),
        pl.format(
            "Der jüngste Wert dieses Versorgungsgebiets vom {}: {}.",
            text.date_expr(pl.col("sampled_at")),
            pl.col(wording.SHOWN),
        ).alias("summary"),
    )


def zone_entries(d: Derived, as_of: dt.date) -> pl.DataFrame:
    """Every entry of every zone's feed: `zone_id`, `key`, `day`, `title`, `summary`."""
    parts = [_publications(d), _changes(d, as_of), _limits(d, as_of)]
    return (
        pl.concat([p.select(_ENTRY) for p in parts], how="vertical_relaxed")
        .sort("zone_id", "day", "key", descending=[False, True, False])
        .group_by("zone_id", maintain_order=True)
        .head(MAX_ENTRIES)
    )


def national_entries(d: Derived, as_of: dt.date) -> pl.DataFrame:
    """Exceedances of Grenzwerte and zones with new publications, newest first."""
    name = pl.col("name_de").fill_null(pl.col("parameter"))
    zones = d.zones.select("zone_id", pl.col("name").alias("zone_name"))
    exceedances = (
        wording.with_readings(
            d.current_values.national().filter(pl.col("state") == verdicts.EXCEEDS_LIMIT).collect()
        )
        .join(zones, on="zone_id")
        .select(
            "zone_id",
            pl.format(
                "ueberschreitung-{}-{}-{}",
                "zone_id",
                "parameter",
                text.date_expr(pl.col("sampled_at")),
            ).alias("key"),
            pl.col("sampled_at").alias("day"),
            pl.format("Grenzwert überschritten: {} in {}", name, "zone_name").alias("title"),
            pl.format(
                "Probe vom {}: {} ({}), {}.",
                text.date_expr(pl.col("sampled_at")),
                name,
                pl.col(wording.SHOWN),
                text.limit_expr(pl.col("limit")),
            ).alias("summary"),
        )
    )
    news = (
        _publications(d)
        .join(zones, on="zone_id")
        .select(
            "zone_id",
            pl.format("neu-{}-{}", "zone_id", "key").alias("key"),
            "day",
            pl.format("Neue Werte: {}", "zone_name").alias("title"),
            "summary",
        )
    )
    return (
        pl.concat([exceedances.select(_ENTRY), news.select(_ENTRY)], how="vertical_relaxed")
        .sort("day", "key", descending=[True, False])
        .head(MAX_NATIONAL)
    )


def _escaped(text: pl.Expr, quote: bool = False) -> pl.Expr:
    """`xml.sax.saxutils.escape` as an expression (`quote`: also `"`, for attributes)."""
    pairs = [("&", "&amp;"), ("<", "&lt;"), (">", "&gt;")] + [('"', "&quot;")] * quote
    for plain, entity in pairs:
        text = text.str.replace_all(plain, entity, literal=True)
    return text


def _entry_expr(config: Config) -> pl.Expr:
    """Return an Atom entry for every row of `_ENTRY` columns, linking to the zone's page."""
    link = pl.lit(config.base_url) + urls.url_expr("zone", zone_id=pl.col("zone_id"))
    return pl.concat_str(
        pl.lit("<entry>\n<id>"),
        _escaped(link),
        pl.lit("#"),
        _escaped(pl.col("key")),
        pl.lit("</id>\n<title>"),
        _escaped(pl.col("title")),
        pl.lit("</title>\n<updated>"),
        pl.col("day").dt.strftime("%Y-%m-%d"),
        pl.lit('T00:00:00Z</updated>\n<link rel="alternate" type="text/html" href="'),
        _escaped(link, quote=True),
        pl.lit('"/>\n<summary>'),
        _escaped(pl.col("summary")),
        pl.lit("</summary>\n</entry>\n"),
    ).alias("entry")


def atom(
    config: Config,
    feed_url: str,
    page_url: str,
    title: str,
    entries: list[str],
    updated: dt.date,
) -> bytes:
    """One Atom document (RFC 4287): id, title, updated, author, self and page links."""
    base = config.base_url
    credit = odbl_attribution(config.operator, config.license_url)["credit"]
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="de">\n'
        f"<id>{escape(base + feed_url)}</id>\n"
        f"<title>{escape(title)}</title>\n"
        f"<updated>{_stamp(updated)}</updated>\n"
        f"<author><name>{escape(config.operator)}</name><email>{escape(config.contact)}</email>"
        "</author>\n"
        f'<link rel="self" type="application/atom+xml" href="{escape(base + feed_url)}"/>\n'
        f'<link rel="alternate" type="text/html" href="{escape(base + page_url)}"/>\n'
        f"<rights>{escape(credit)}</rights>\n" + "".join(entries) + "</feed>\n"
    ).encode()


@dataclass(frozen=True)
class ZoneFeeds:
    """The zone feeds a build renders, with what they need."""

    zones: pl.DataFrame
    """`zone_id` and `name` of the zones whose feeds are rendered, in order."""
    entries: pl.DataFrame
    """`zone_entries` of (at least) those zones."""
    quiet: dt.date
    """The date of a feed without entries: the newest entry of any zone (`quiet_day`)."""


def quiet_day(newest: object, as_of: dt.date) -> dt.date:
    """Return the date of a feed without entries: the newest entry's, `as_of` without any."""
    return newest if isinstance(newest, dt.date) else as_of


def newest_days(entries: pl.DataFrame) -> pl.DataFrame:
    """Return `zone_id` and the day of its newest entry (`feed_day`), zones with entries only."""
    return entries.group_by("zone_id").agg(pl.col("day").max().alias("feed_day"))


def every_zone_feed(d: Derived, as_of: dt.date) -> ZoneFeeds:
    entries = zone_entries(d, as_of)
    return ZoneFeeds(
        d.zones.select("zone_id", "name"), entries, quiet_day(entries["day"].max(), as_of)
    )


def national_feed(d: Derived, as_of: dt.date, config: Config) -> tuple[str, bytes]:
    """Return the path and text of the national feed."""
    national = national_entries(d, as_of)
    entries = national.select(_entry_expr(config))["entry"].to_list()
    return (
        urls.file_path("feed"),
        atom(
            config,
            urls.url("feed"),
            urls.url("home"),
            TITLE,
            entries,
            quiet_day(national["day"].max(), as_of),
        ),
    )


def feed_files(
    d: Derived,
    as_of: dt.date,
    config: Config,
    zone_feeds: ZoneFeeds | None = None,
    national: tuple[str, bytes] | None = None,
) -> Iterator[tuple[str, bytes]]:
    """Yield the national feed and the zones' feeds (every zone's, unless `zone_feeds` says).

    `national`: the national feed (`national_feed`) when the caller made it.

    A zone without entries gets an empty one, dated by the newest entry of any zone, so its
    address never answers 404.
    """
    yield national or national_feed(d, as_of, config)
    plan = zone_feeds or every_zone_feed(d, as_of)
    # The entries as text in polars, joined per zone: a Python call per entry (hundreds of
    # thousands nationally) took most of the feeds' time. In slices of zones: the escaped
    # text of every entry at once was the build's peak of memory.
    for zones in plan.zones.iter_slices(FEED_ZONES):
        per_zone = (
            plan.entries.filter(pl.col("zone_id").is_in(zones["zone_id"].implode()))
            .select("zone_id", "day", _entry_expr(config))
            .group_by("zone_id", maintain_order=True)
            .agg(pl.col("entry").str.join(""), pl.col("day").max())
        )
        feeds = zones.join(per_zone, on="zone_id", how="left", maintain_order="left")
        for zone_id, name, entries, day in feeds.iter_rows():
            yield (
                urls.file_path("zone_feed", zone_id=zone_id),
                atom(
                    config,
                    urls.url("zone_feed", zone_id=zone_id),
                    urls.url("zone", zone_id=zone_id),
                    f"Trinkwasser im Versorgungsgebiet {name}: Neuigkeiten",
                    [entries or ""],
                    day or plan.quiet,
                ),
            )


def plz_feed_links(d: Derived) -> pl.DataFrame:
    """Return the feeds of a PLZ's zones, in the order of its zones.

    `plz`, `feed_heads` (`<link rel="alternate">` per zone) and `feed_list` (visible links).
    """
    url = urls.url_expr("zone_feed", zone_id=pl.col("zone_id"))
    name = text.esc(pl.col("zone_name"))
    return (
        d.lookups.select("plz", "zones")
        .explode("zones")
        .select("plz", pl.col("zones").struct.field("zone_id", "zone_name"))
        .group_by("plz", maintain_order=True)
        .agg(
            pl.format(
                '<link rel="alternate" type="application/atom+xml" title="Neuigkeiten: {}" '
                'href="{}">',
                name,
                url,
            )
            .str.join("\n")
            .alias("feed_heads"),
            pl.format('<a href="{}" type="application/atom+xml">{}</a>', url, name)
            .str.join(", ")
            .alias("feed_list"),
        )
    )
