"""The national map, drawn at build time: the PLZ areas coloured by the verdict of their zone.

With the `plz_shapes` table (`trinkwasser mapping` writes it) every PLZ is its simplified
area, one link to its PLZ page, with the outline of the covered area and, where the shapes
name their Land, the outlines of the Länder: both are the edges the areas do not share with
a neighbour of the same Land (the shapes are a coverage, so shared edges coincide). Without
shapes every PLZ is a small square at the mean of its places' coordinates (the optional
`places` table), grouped into one link per zone; a PLZ with neither is left off the map and
counted as such.

One SVG serves three views (PFAS-20, nitrate, hardness): each link has three classes, one
per view, and the stylesheet colours the view the page shows. Without JavaScript the three
views are three pages (`/karte/`, `/karte/nitrat/`, `/karte/haerte/`); with it, the view
switches in place. Nothing comes from another host. A table of counts per colour, and links
to the zones above a limit, say the same in text.
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
FINE = 4
"""Units of a shape per map unit (about 280 m): coordinates of areas are whole numbers."""
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
    cv = d.current_values.national().filter(pl.col("parameter").is_in(["pfas_summe_20", "nitrat"]))
    tones = (
        cv.select("zone_id", "parameter", tone.alias("t"))
        .collect()
        .pivot(on="parameter", index="zone_id", values="t")
    )
    hardness = answer.zone_hardness(d.current_values.national(), d.hardness_ranges)
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


def plz_zone(d: Derived) -> pl.DataFrame:
    """Every PLZ with a page: `plz` and `zone_id`, the zone its page names first."""
    return d.lookups.select(
        "plz", pl.col("zones").list.first().struct.field("zone_id").alias("zone_id")
    )


def plz_points(d: Derived) -> pl.DataFrame:
    """Every PLZ with coordinates: `plz`, `zone_id` (the zone its page names first), x, y."""
    centre = d.places.group_by("plz").agg(pl.col("lat").mean(), pl.col("lon").mean())
    return (
        plz_zone(d)
        .join(centre, on="plz")
        .select(
            "plz",
            "zone_id",
            ((pl.col("lon") - WEST) * X_SCALE).round(0).cast(pl.Int64).alias("x"),
            ((NORTH - pl.col("lat")) * SCALE).round(0).cast(pl.Int64).alias("y"),
        )
        .sort("plz")
    )


def _num(expr: pl.Expr) -> pl.Expr:
    """Write a whole number as path data wants it: a space before it unless it is negative."""
    text = expr.cast(pl.String)
    return pl.when(expr < 0).then(text).otherwise(pl.concat_str(pl.lit(" "), text))


def shape_points(shapes: pl.DataFrame) -> pl.DataFrame:
    """Every vertex of every ring in map units: `plz`, `land`, `r` (ring), `x`, `y`.

    Consecutive vertices that round to the same point are one.
    """
    rings = (
        shapes.select("plz", "land", pl.col("shape").str.split(";").alias("ring"))
        .explode("ring")
        .with_row_index("r")
    )
    pair = pl.col("p").str.split_exact(" ", 1)
    points = (
        rings.select("plz", "land", "r", pl.col("ring").str.split(",").alias("p"))
        .explode("p")
        .select(
            "plz",
            "land",
            "r",
            ((pair.struct.field("field_0").cast(pl.Float64) - WEST) * X_SCALE * FINE)
            .round(0)
            .cast(pl.Int64)
            .alias("x"),
            ((NORTH - pair.struct.field("field_1").cast(pl.Float64)) * SCALE * FINE)
            .round(0)
            .cast(pl.Int64)
            .alias("y"),
        )
    )
    same = (pl.col("x") == pl.col("x").shift(1).over("r")) & (
        pl.col("y") == pl.col("y").shift(1).over("r")
    )
    return points.filter(~same.fill_null(False))


def shape_paths(points: pl.DataFrame) -> pl.DataFrame:
    """`plz` and `d`, the path data of its area: per ring a move and relative lines.

    A ring that rounds to fewer than three points (a PLZ smaller than the map's grid) is
    drawn as the smallest square, so every PLZ with a shape stays on the map.
    """
    first = pl.int_range(pl.len()).over("r") == 0
    dx = pl.col("x") - pl.col("x").shift(1).over("r")
    dy = pl.col("y") - pl.col("y").shift(1).over("r")
    step = (
        pl.when(first)
        .then(pl.format("M{} {}l", "x", "y"))
        .otherwise(pl.concat_str(_num(dx), _num(dy)))
    )
    rings = points.group_by("r", maintain_order=True).agg(
        pl.col("plz").first(),
        step.str.join("").alias("d"),
        pl.len().alias("n"),
        pl.col("x").first(),
        pl.col("y").first(),
    )
    ring = (
        pl.when(pl.col("n") >= 3)
        .then(pl.concat_str(pl.col("d").str.replace("l ", "l", literal=True), pl.lit("z")))
        .otherwise(pl.format("M{} {}h2v2h-2z", "x", "y"))
    )
    return rings.group_by("plz", maintain_order=True).agg(ring.str.join("").alias("d"))


def outlines(points: pl.DataFrame) -> str:
    """Return the path data of the edges that no two areas of one Land share.

    That is the outline of the covered area and, where the shapes name their Land, the
    borders between Länder.

    Each edge is taken from one side only, and consecutive edges of a ring are one line.
    """
    nxt_x = pl.col("x").shift(-1).over("r").fill_null(pl.col("x").first().over("r"))
    nxt_y = pl.col("y").shift(-1).over("r").fill_null(pl.col("y").first().over("r"))
    edges = points.with_columns(
        nxt_x.alias("x2"), nxt_y.alias("y2"), pl.int_range(pl.len()).alias("_i")
    ).with_columns(
        # The same edge seen from both sides: its ends in one order.
        pl.min_horizontal("x", "x2").alias("_a"),
        pl.when(pl.col("x") < pl.col("x2"))
        .then(pl.col("y"))
        .when(pl.col("x") > pl.col("x2"))
        .then(pl.col("y2"))
        .otherwise(pl.min_horizontal("y", "y2"))
        .alias("_b"),
        pl.max_horizontal("x", "x2").alias("_c"),
        pl.when(pl.col("x") < pl.col("x2"))
        .then(pl.col("y2"))
        .when(pl.col("x") > pl.col("x2"))
        .then(pl.col("y"))
        .otherwise(pl.max_horizontal("y", "y2"))
        .alias("_d"),
        pl.col("land").fill_null(""),
    )
    key = ["_a", "_b", "_c", "_d"]
    sides = edges.group_by(key).agg(
        pl.len().alias("_n"), pl.col("land").min().alias("_lo"), pl.col("land").max().alias("_hi")
    )
    border = (
        edges.join(sides, on=key, how="left")
        .sort("_i")
        .with_columns(
            (
                (pl.col("_n") == 1)
                | ((pl.col("_lo") != pl.col("_hi")) & (pl.col("land") == pl.col("_lo")))
            ).alias("_keep")
        )
    )
    run = (pl.col("_keep") != pl.col("_keep").shift(1).over("r")).fill_null(True).cum_sum()
    lines = (
        border.with_columns(run.alias("_run"))
        .filter("_keep")
        .group_by("_run", maintain_order=True)
        .agg(
            pl.col("x").first(),
            pl.col("y").first(),
            pl.concat_str(_num(pl.col("x2") - pl.col("x")), _num(pl.col("y2") - pl.col("y")))
            .str.join("")
            .alias("l"),
        )
        .select(pl.format("M{} {}l{}", "x", "y", pl.col("l").str.strip_chars_start(" ")))
        .to_series()
    )
    return "".join(lines)


def shape_svg(shapes: pl.DataFrame, plz_zone: pl.DataFrame, classes: pl.DataFrame) -> str:
    """Draw the map of areas: per PLZ one link to its page, with the classes of its zone."""
    points = shape_points(shapes)
    paths = shape_paths(points)
    linked = (
        paths.join(plz_zone, on="plz", how="left")
        .join(classes, on="zone_id", how="left")
        .sort("plz")
        .select(
            pl.when(pl.col("zone_id").is_not_null())
            .then(
                pl.format(
                    '<a href="{}" class="p{} n{} h{}" tabindex="-1"><path d="{}"/></a>',
                    urls.url_expr("plz", plz=pl.col("plz")),
                    "p",
                    "n",
                    "h",
                    "d",
                )
            )
            .otherwise(pl.format('<path class="nz" d="{}"/>', "d"))
        )
        .to_series()
    )
    width, height = (WIDTH + DOT) * FINE, (HEIGHT + DOT) * FINE
    return (
        f'<svg class="map map-areas" viewBox="0 0 {width} {height}" aria-hidden="true" '
        f'focusable="false">{"".join(linked)}'
        f'<path class="outline" d="{outlines(points)}"/></svg>'
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
    if d.plz_shapes.height:
        # Counted like the dots: a PLZ with a page and a shape is on the map.
        points = plz_zone(d).join(d.plz_shapes.select("plz"), on="plz")
        drawing = shape_svg(d.plz_shapes, plz_zone(d), classes)
    else:
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
            areas=d.plz_shapes.height > 0,
            lands=d.plz_shapes["land"].drop_nulls().n_unique() > 1,
        )
        yield path, html.encode()
