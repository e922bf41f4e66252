"""The national map, drawn at build time: the PLZ areas coloured by the verdict of their zone.

With the `plz_shapes` table (`trinkwasser mapping` writes it) every PLZ is its simplified
area, one link to its PLZ page, with the outline of the covered area and, where the shapes
name their Land, the outlines of the Länder: both are the edges the areas do not share with
a neighbour of the same Land (the shapes are a coverage, so shared edges coincide). Without
shapes every PLZ is a small square at the mean of its places' coordinates (the optional
`places` table), grouped into one link per zone; a PLZ with neither is left off the map and
counted as such.

Under the data lie the outline of Germany and its 16 Länder from Natural Earth (public
domain; `laender.csv`, made by `tools/make_laender.py`), always drawn, whatever the data
covers. Each area's link carries a `<title>` (PLZ, place, the verdict of its zone), so a
pointer shows what a colour means. With areas that name their Land, each Land with data
gets a view of its own (`/karte/land/{code}/`): the same drawing cut to the Land's areas,
so that an area is large enough to tap on a phone; on the national map each Land links to
it. That is the zoom without JavaScript.

One SVG serves three views (PFAS-20, nitrate, hardness): each link has three classes, one
per view, and the stylesheet colours the view the page shows. Without JavaScript the three
views are three pages (`/karte/`, `/karte/nitrat/`, `/karte/haerte/`); with it, the view
switches in place. Nothing comes from another host. A table of counts per colour, and links
to the zones above a limit, say the same in text.
"""

from __future__ import annotations

import functools
import html
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import polars as pl

from generator.api import verdicts
from generator.derive import Derived
from generator.site import answer, text, urls

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
LAENDER = Path(__file__).with_name("laender.csv")
"""The Länder from Natural Earth, simplified (`tools/make_laender.py`): code, land, shape."""
NATURAL_EARTH = "Natural Earth"
LAND_MARGIN = 0.08
"""Room around a Land view's areas, as a share of their extent."""


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


@functools.cache
def laender() -> pl.DataFrame:
    """Return the 16 Länder: `code` (ISO 3166-2 without `DE-`), `land` (German name), `d` (path)."""
    frame = pl.read_csv(LAENDER, schema={"code": pl.String, "land": pl.String, "shape": pl.String})
    points = shape_points(frame.select(pl.col("code").alias("plz"), "land", "shape"))
    paths = shape_paths(points).rename({"plz": "code"})
    return frame.select("code", "land").join(paths, on="code", how="left", maintain_order="left")


def land_url(code: str) -> str:
    return urls.url("map_land", land=code.lower())


def land_layer(with_views: frozenset[str], scale: str = "") -> str:
    """Draw the Länder under the data: a Land with a view of its own links to it."""
    parts = []
    for code, land, d in laender().iter_rows():
        name = html.escape(land)
        if code in with_views:
            parts.append(
                f'<a href="{land_url(code)}" class="land" tabindex="-1">'
                f'<title>{name}: Karte des Landes öffnen</title><path d="{d}"/></a>'
            )
        else:
            parts.append(f'<path class="land" d="{d}"><title>{name}</title></path>')
    transform = f' transform="scale({scale})"' if scale else ""
    return f'<g class="lands"{transform}>{"".join(parts)}</g>'


def plz_titles(d: Derived) -> pl.DataFrame:
    """`plz` and `title`: the PLZ, its first place and its first zone's verdict, escaped."""
    place = d.places.group_by("plz").agg(pl.col("name").sort().first().alias("place"))
    verdict = d.zones.select("zone_id", pl.col("summary").struct.field("title_de").alias("verdict"))
    return (
        plz_zone(d)
        .join(place, on="plz", how="left")
        .join(verdict, on="zone_id", how="left")
        .select(
            "plz",
            text.esc(
                pl.concat_str(
                    pl.col("plz"),
                    pl.lit(" ") + pl.col("place"),
                    pl.lit(": ") + pl.col("verdict"),
                    ignore_nulls=True,
                )
            ).alias("title"),
        )
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


@dataclass(frozen=True)
class Areas:
    """The map of areas, drawn once: every PLZ area's link and the points they are made of."""

    links: pl.DataFrame
    """`plz`, `land` and `html`: the link of each PLZ area (a grey path where it has no page)."""
    points: pl.DataFrame
    """Every vertex of every area (`shape_points`)."""

    @classmethod
    def draw(
        cls,
        shapes: pl.DataFrame,
        plz_zone: pl.DataFrame,
        classes: pl.DataFrame,
        titles: pl.DataFrame,
    ) -> Areas:
        points = shape_points(shapes)
        paths = shape_paths(points)
        links = (
            paths.join(shapes.select("plz", "land"), on="plz", how="left")
            .join(plz_zone, on="plz", how="left")
            .join(classes, on="zone_id", how="left")
            .join(titles, on="plz", how="left")
            .sort("plz")
            .select(
                "plz",
                "land",
                pl.when(pl.col("zone_id").is_not_null())
                .then(
                    pl.format(
                        '<a href="{}" class="p{} n{} h{}" tabindex="-1"><title>{}</title>'
                        '<path d="{}"/></a>',
                        urls.url_expr("plz", plz=pl.col("plz")),
                        "p",
                        "n",
                        "h",
                        "title",
                        "d",
                    )
                )
                .otherwise(pl.format('<path class="nz" d="{}"/>', "d"))
                .alias("html"),
            )
        )
        return cls(links, points)

    def lands_with_views(self) -> frozenset[str]:
        """Return the codes of the Länder whose name some linked area carries."""
        named = self.links.filter(pl.col("html").str.starts_with("<a "))["land"].drop_nulls()
        known = laender().filter(pl.col("land").is_in(named.implode()))
        return frozenset(known["code"])

    def svg(self, views: frozenset[str], land: str | None = None) -> str:
        """Draw Germany, or with `land` the view of that Land: its areas and its outline."""
        links, points = self.links, self.points
        if land is None:
            width, height = (WIDTH + DOT) * FINE, (HEIGHT + DOT) * FINE
            box = f"0 0 {width} {height}"
        else:
            links = links.filter(pl.col("land") == land)
            points = points.filter(pl.col("land") == land)
            box = _view_box(points)
        return (
            f'<svg class="map map-areas" viewBox="{box}" aria-hidden="true" '
            f'focusable="false">{land_layer(views)}{"".join(links["html"])}'
            f'<path class="outline" d="{outlines(points)}"/></svg>'
        )


def _view_box(points: pl.DataFrame) -> str:
    """Return the box around some areas, with a margin, no narrower than a fifth of its height."""
    x0, x1, y0, y1 = points.select(
        pl.col("x").min().alias("x0"),
        pl.col("x").max().alias("x1"),
        pl.col("y").min().alias("y0"),
        pl.col("y").max().alias("y1"),
    ).row(0)
    w, h = max(x1 - x0, 1), max(y1 - y0, 1)
    w = max(w, h // 5)
    m = max(round(max(w, h) * LAND_MARGIN), 4)
    return f"{x0 - m} {y0 - m} {w + 2 * m} {h + 2 * m}"


def shape_svg(shapes: pl.DataFrame, plz_zone: pl.DataFrame, classes: pl.DataFrame) -> str:
    """Draw the map of areas: per PLZ one link to its page, with the classes of its zone."""
    titles = plz_zone.select("plz", pl.col("plz").alias("title"))
    return Areas.draw(shapes, plz_zone, classes, titles).svg(frozenset())


def svg(points: pl.DataFrame, classes: pl.DataFrame, titles: pl.DataFrame | None = None) -> str:
    """Draw the map: per zone one link holding a square per PLZ, classes for every layer.

    `titles`: `zone_id` and `title`, escaped (the zone's name and verdict).
    """
    square = pl.format("M{} {}h{}v{}h-{}z", "x", "y", pl.lit(DOT), pl.lit(DOT), pl.lit(DOT))
    if titles is None:
        titles = classes.select("zone_id", text.esc(pl.col("name")).alias("title"))
    links = (
        points.with_columns(square.alias("d"))
        .group_by("zone_id", maintain_order=True)
        .agg(pl.col("d").str.join(""))
        .join(classes, on="zone_id")
        .join(titles, on="zone_id", how="left")
        .sort("zone_id")
        .select(
            pl.format(
                '<a href="{}" class="p{} n{} h{}" tabindex="-1"><title>{}</title>'
                '<path d="{}"/></a>',
                urls.url_expr("zone", zone_id=pl.col("zone_id")),
                "p",
                "n",
                "h",
                "title",
                "d",
            )
        )
        .to_series()
    )
    # The Länder are drawn in the areas' finer units: a quarter of a unit of the dots.
    return (
        f'<svg class="map" viewBox="0 0 {WIDTH + DOT} {HEIGHT + DOT}" aria-hidden="true" '
        f'focusable="false">{land_layer(frozenset(), scale=str(1 / FINE))}'
        f"{''.join(links)}</svg>"
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


def zone_titles(d: Derived) -> pl.DataFrame:
    """`zone_id` and `title`: the zone's name and its verdict, escaped (the dots' links)."""
    return d.zones.select(
        "zone_id",
        text.esc(
            pl.format("{}: {}", pl.col("name"), pl.col("summary").struct.field("title_de"))
        ).alias("title"),
    )


def map_pages(d: Derived, env: jinja2.Environment) -> Iterator[tuple[str, bytes]]:
    """Yield the map page of every layer, then the view of every Land with areas.

    Every layer's page holds the same SVG, the layer's view shown.
    """
    classes = zone_classes(d)
    views: frozenset[str] = frozenset()
    areas = None
    if d.plz_shapes.height:
        # Counted like the dots: a PLZ with a page and a shape is on the map.
        points = plz_zone(d).join(d.plz_shapes.select("plz", "land"), on="plz")
        areas = Areas.draw(d.plz_shapes, plz_zone(d), classes, plz_titles(d))
        views = areas.lands_with_views()
        drawing = areas.svg(views)
    else:
        points = plz_points(d)
        drawing = svg(points, classes, zone_titles(d))
    summaries = [_summary(layer, points, classes) for layer in LAYERS]
    lands = [
        {"code": code, "name": land, "url": land_url(code)}
        for code, land, _ in laender().iter_rows()
        if code in views
    ]
    template = env.get_template("map.html")
    common = {
        "plz_total": d.lookups.height,
        "zones_total": d.zones.height,
        "areas": d.plz_shapes.height > 0,
        "lands": d.plz_shapes["land"].drop_nulls().n_unique() > 1,
        "land_views": lands,
    }
    for layer, current in zip(LAYERS, summaries, strict=True):
        path = urls.file_path("map_layer", layer=layer.key) if layer.key else urls.file_path("map")
        html = template.render(
            layers=summaries,
            current=current,
            svg=drawing,
            plz_drawn=points.height,
            land=None,
            **common,
        )
        yield path, html.encode()
    if areas is None:
        return
    for view in lands:
        here = points.filter(pl.col("land") == view["name"])
        mine = classes.filter(pl.col("zone_id").is_in(here["zone_id"].implode()))
        local = [_summary(layer, here, mine) for layer in LAYERS]
        html = template.render(
            layers=local,
            current=local[0],
            svg=areas.svg(views, view["name"]),
            plz_drawn=here.height,
            land=view,
            **common,
        )
        yield urls.file_path("map_land", land=view["code"].lower()), html.encode()
