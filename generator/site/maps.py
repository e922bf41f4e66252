"""The national map: every PLZ as a dot, coloured by the verdict of its zone, drawn at build time.

One SVG serves three views (PFAS-20, nitrate, hardness): each zone's dots are one link with
three classes, one per view, and the stylesheet colours the view the page shows. Without
JavaScript the three views are three pages (`/karte/`, `/karte/nitrat/`, `/karte/haerte/`);
with it, the view switches in place. Nothing comes from another host: no tiles, no fonts,
no outline of Germany (the dots draw it). A table of counts per colour, and links to the
zones above a limit, say the same in text.

A PLZ sits at the mean of its places' coordinates (the optional `places` table); a PLZ
without one is left off the map and counted as such.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import jinja2
import polars as pl

from generator.api import verdicts
from generator.derive import Derived
from generator.site import answer, urls

# The frame of Germany (WGS84), fixed so every build draws at the same scale.
WEST, EAST, SOUTH, NORTH = 5.8, 15.1, 47.2, 55.1
SCALE = 100.0  # map units per degree of latitude (about 1.1 km per unit)
X_SCALE = SCALE * math.cos(math.radians((SOUTH + NORTH) / 2))
WIDTH = round((EAST - WEST) * X_SCALE)
HEIGHT = round((NORTH - SOUTH) * SCALE)
DOT = 4  # side of a PLZ's square, in map units
MAX_LINKS = 300  # zones listed by name per colour of concern; the rest are counted


@dataclass(frozen=True)
class Layer:
    key: str
    """The `layer` of `/karte/{layer}/`, or "" for the first view at `/karte/`."""
    title: str
    prefix: str
    """The first letter of the layer's class on a zone's link (`pb`: PFAS-20, bad)."""
    classes: tuple[tuple[str, str], ...]
    """(class letter, words) in legend order."""
    concern: tuple[str, ...]
    """Class letters whose zones are listed by name."""


TONES = (
    ("b", "Grenzwert überschritten"),
    ("w", "über einem anderen Wert (kein Grenzwert)"),
    ("o", "eingehalten"),
    ("q", "nicht bewertbar oder noch kein Grenzwert"),
    ("n", "keine Werte veröffentlicht"),
)
LAYERS = (
    Layer("", "PFAS-20", "p", TONES, ("b", "w")),
    Layer("nitrat", "Nitrat", "n", TONES, ("b", "w")),
    Layer(
        "haerte",
        "Härtebereich",
        "h",
        (("s", "weich"), ("m", "mittel"), ("h", "hart"), ("n", "unbekannt")),
        (),
    ),
)
# A state's category (generator/api/verdicts.py) as a tone of the map.
CATEGORY_TONE = {
    verdicts.EXCEEDS_LIMIT: "b",
    verdicts.EXCEEDS_OTHER: "w",
    verdicts.COMPLIES: "o",
    verdicts.NOT_ASSESSABLE: "q",
    verdicts.NO_COMPARISON: "q",
    verdicts.NOT_MEASURED: "n",
}
HARDNESS_CLASS = {"weich": "s", "mittel": "m", "hart": "h"}


def layer_url(layer: Layer) -> str:
    return urls.url("map_layer", layer=layer.key) if layer.key else urls.url("map")


def zone_classes(d: Derived) -> pl.DataFrame:
    """One row per zone: `zone_id`, `name` and its class letter in every layer (`p`, `n`, `h`)."""
    tone = pl.col("state").replace_strict(
        {s: CATEGORY_TONE[v.category] for s, v in verdicts.STATES.items()}
    )
    cv = d.current_values.filter(pl.col("parameter").is_in(["pfas_summe_20", "nitrat"]))
    tones = cv.select("zone_id", "parameter", tone.alias("t")).pivot(
        on="parameter", index="zone_id", values="t"
    )
    hardness = answer.zone_hardness(d.current_values, d.hardness_ranges)
    frame = d.zones.select("zone_id", "name").join(tones, on="zone_id", how="left")
    for column in ("pfas_summe_20", "nitrat"):
        if column not in frame.columns:
            frame = frame.with_columns(pl.lit(None, dtype=pl.String).alias(column))
    return (
        frame.join(hardness, on="zone_id", how="left")
        .select(
            "zone_id",
            "name",
            pl.col("pfas_summe_20").fill_null("n").alias("p"),
            pl.col("nitrat").fill_null("n").alias("n"),
            pl.col("hardness_range")
            .replace_strict(HARDNESS_CLASS, default="n", return_dtype=pl.String)
            .alias("h"),
        )
        .sort("zone_id")
    )


def plz_points(d: Derived) -> pl.DataFrame:
    """Every PLZ with coordinates: `plz`, `zone_id` (the zone its page names first), x, y."""
    centre = d.places.group_by("plz").agg(pl.col("lat").mean(), pl.col("lon").mean())
    first = d.lookups.select(
        "plz", pl.col("zones").list.first().struct.field("zone_id").alias("zone_id")
    )
    return (
        first.join(centre, on="plz")
        .select(
            "plz",
            "zone_id",
            ((pl.col("lon") - WEST) * X_SCALE).round(0).cast(pl.Int64).alias("x"),
            ((NORTH - pl.col("lat")) * SCALE).round(0).cast(pl.Int64).alias("y"),
        )
        .sort("plz")
    )


def svg(points: pl.DataFrame, classes: pl.DataFrame) -> str:
    """Draw the map: per zone one link holding a square per PLZ, classes for every layer."""
    square = pl.format("M{} {}h{}v{}h-{}z", "x", "y", pl.lit(DOT), pl.lit(DOT), pl.lit(DOT))
    links = (
        points.with_columns(square.alias("d"))
        .group_by("zone_id", maintain_order=True)
        .agg(pl.col("d").str.join(""))
        .join(classes, on="zone_id")
        .sort("zone_id")
        .select(
            pl.format(
                '<a href="{}" class="p{} n{} h{}" tabindex="-1"><path d="{}"/></a>',
                urls.url_expr("zone", zone_id=pl.col("zone_id")),
                "p",
                "n",
                "h",
                "d",
            )
        )
        .to_series()
    )
    return (
        f'<svg class="map" viewBox="0 0 {WIDTH + DOT} {HEIGHT + DOT}" aria-hidden="true" '
        f'focusable="false">{"".join(links)}</svg>'
    )


def _summary(layer: Layer, points: pl.DataFrame, classes: pl.DataFrame) -> dict[str, Any]:
    """Count per class (zones, PLZ on the map) and name the zones of concern."""
    letter = pl.col(layer.prefix)
    zones = classes.group_by(letter).len("zones")
    on_map = points.join(classes, on="zone_id").group_by(letter).len("plz")
    counts = {
        r[layer.prefix]: r for r in zones.join(on_map, on=layer.prefix, how="left").to_dicts()
    }
    rows = [
        {
            "cls": f"{layer.prefix}{c}",
            "words": words,
            "zones": counts.get(c, {}).get("zones") or 0,
            "plz": counts.get(c, {}).get("plz") or 0,
        }
        for c, words in layer.classes
    ]
    concern = classes.filter(letter.is_in(list(layer.concern))).sort("name", "zone_id")
    listed = [
        {"name": name, "url": urls.url("zone", zone_id=zone_id)}
        for zone_id, name in concern.head(MAX_LINKS).select("zone_id", "name").iter_rows()
    ]
    return {
        "key": layer.key or "pfas",
        "title": layer.title,
        "url": layer_url(layer),
        "rows": rows,
        "listed": listed,
        "unlisted": concern.height - len(listed),
    }


def map_pages(d: Derived, env: jinja2.Environment) -> Iterator[tuple[str, bytes]]:
    """Yield the map page of every layer: the same SVG, the layer's view shown."""
    classes = zone_classes(d)
    points = plz_points(d)
    drawing = svg(points, classes)
    summaries = [_summary(layer, points, classes) for layer in LAYERS]
    template = env.get_template("map.html")
    for layer, current in zip(LAYERS, summaries, strict=True):
        path = urls.file_path("map_layer", layer=layer.key) if layer.key else urls.file_path("map")
        html = template.render(
            layers=summaries,
            current=current,
            svg=drawing,
            plz_total=d.lookups.height,
            plz_drawn=points.height,
            zones_total=d.zones.height,
        )
        yield path, html.encode()
