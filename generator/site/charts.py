"""Server-side SVG charts of a zone's series, computed for all zones at once in polars.

One chart per (zone, parameter) for PFAS-20, PFAS-4 and every parameter with a numeric
limit and at least `MIN_POINTS` plotted values. Coordinates, the limit step line, axes and
the table fallback are polars string expressions over whole columns; Python receives one
finished `<figure>` per chart and never touches a single measurement.

Point markers are not drawn per point: each series is a polyline whose vertices get SVG
markers from CSS (`marker: url(#mv)`), defined once per page. That keeps a zone with
dozens of long series light.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import polars as pl

from generator.site import assets, fragments, shares, text
from generator.values import units, wording

ALWAYS = ("pfas_summe_20", "pfas_summe_4")
MIN_POINTS = 3

# Narrow enough that labels stay legible when a phone shrinks the chart (CSS enlarges
# the text there), wide enough for a few years of samples.
WIDTH, HEIGHT = 480, 250
LEFT, RIGHT, TOP, BOTTOM = 58, 470, 16, 220
PLOT_W, PLOT_H = RIGHT - LEFT, BOTTOM - TOP
EDGE = 2  # chart units a label keeps from the edge of the viewBox

# How wide a label is, estimated before any browser draws it: the same SVG serves a phone,
# where static/site.css sets its text at PHONE_FONT chart units, and a desktop (11 units).
# Per character, in em, a little above the widest system font a browser may pick (DejaVu
# Sans; bold for limit labels): narrow characters apart, the rest alike.
PHONE_FONT = 17
NARROW = r"[ .,:;!|()ijlftr'-]"
EM = {"bold": (0.72, 0.5), "regular": (0.66, 0.34)}

EPOCH = dt.date(1970, 1, 1)

# How a published value is drawn: a measured number; a reporting limit ('< x', drawn at x,
# an upper bound); nothing found ('n.n.', or '< BG' without a number, drawn at zero).
VALUE, BELOW, NONE = "v", "b", "n"
KINDS = (VALUE, BELOW, NONE)
# A series is one (zone, parameter), packed into one integer `sid`. Rows arrive sorted by
# it, so each series is one run of rows; its run number `g` keys every per-series frame,
# and handing per-series values back to the rows is a gather by `g`, not a join.
KEY = ["g"]
PARAMETER_SLOTS = 4096


def _days(expr: pl.Expr) -> pl.Expr:
    return (expr - pl.lit(EPOCH)).dt.total_days()


def _date_of(days: pl.Expr) -> pl.Expr:
    return pl.lit(EPOCH) + pl.duration(days=days)


def _fmt(expr: pl.Expr) -> pl.Expr:
    """Format a chart coordinate: whole units are finer than a phone's pixels."""
    return expr.round(0).cast(pl.Int64).cast(pl.String)


def limit_lines(limits: pl.DataFrame, parameters: pl.DataFrame) -> pl.DataFrame:
    """Return every numeric limit line, converted to the register unit of its parameter.

    Columns: parameter, kind, line (value | value_min | value_max), level, start, end
    (days since 1970; end is exclusive and null when open-ended). Limits whose unit does
    not convert are left out rather than drawn at a wrong height.
    """
    conv = limits.join(
        parameters.select("code", pl.col("unit").alias("parameter_unit")), on="code"
    ).with_columns(pl.col("unit").fill_null(""), pl.col("parameter_unit").fill_null(""))
    pairs = units.factor_frame(
        conv.select("unit", "parameter_unit").unique(), "unit", "parameter_unit"
    )
    conv = conv.join(pairs, on=["unit", "parameter_unit"]).filter(pl.col("factor").is_not_null())
    return (
        conv.select(
            pl.col("code").alias("parameter"),
            "kind",
            _days(pl.col("valid_from")).alias("start"),
            (_days(pl.col("valid_until")) + 1).alias("end"),
            *(
                (pl.col(c) * pl.col("factor")).round_sig_figs(12).alias(c)
                for c in ("value", "value_min", "value_max")
            ),
        )
        .unpivot(
            index=["parameter", "kind", "start", "end"],
            on=["value", "value_min", "value_max"],
            variable_name="line",
            value_name="level",
        )
        .drop_nulls("level")
        .sort("parameter", "line", "start")
    )


def limit_notes(limits: pl.DataFrame) -> pl.DataFrame:
    """Return per parameter every limit version in words (a few dozen rows: Python is fine)."""
    notes: dict[str, list[str]] = {}
    for r in limits.sort("code", "valid_from").iter_rows(named=True):
        words = text.limit(
            r["kind"], r["value"], r["value_min"], r["value_max"], r["requirement"], r["unit"]
        )
        words += f" ab {text.date(r['valid_from'])}"
        if r["valid_until"]:
            words += f" bis {text.date(r['valid_until'])}"
        notes.setdefault(r["code"], []).append(words)
    return pl.DataFrame(
        {"parameter": list(notes), "limit_note": ["; ".join(v) + "." for v in notes.values()]},
        schema={"parameter": pl.String, "limit_note": pl.String},
    )


@dataclass(frozen=True)
class ChartInputs:
    """What every batch of charts shares: limit lines and words, names, documents, markup."""

    lines: pl.DataFrame
    notes: pl.DataFrame
    names: pl.DataFrame
    charted: pl.Series
    codes: dict[str, int]
    """Index of every register code, to pack (zone, parameter) into `sid`."""
    figure: str
    """The `templates/fragments/chart.html` fragment."""
    row: str
    """The `templates/fragments/chart_row.html` fragment."""

    @classmethod
    def prepare(cls, limits: pl.DataFrame, parameters: pl.DataFrame) -> ChartInputs:
        """Compute the shared inputs once per build; the fragments from the templates."""
        templates = assets.templates_dir()
        lines = limit_lines(limits, parameters)
        return cls(
            lines=lines,
            notes=limit_notes(limits),
            names=parameters.select(
                pl.col("code").alias("parameter"),
                "name_de",
                text.unit_expr(pl.col("unit")).alias("axis_unit"),
            ),
            charted=pl.concat([lines["parameter"], pl.Series(list(ALWAYS))]).unique().sort(),
            codes={code: i for i, code in enumerate(parameters["code"].sort())},
            figure=fragments.load(templates, "chart.html"),
            row=fragments.load(templates, "chart_row.html"),
        )


def _plotted(measurements: pl.LazyFrame, inputs: ChartInputs) -> pl.LazyFrame:
    """Keep the charted parameters; add the series key and how and where to draw."""
    q = pl.col("qualifier")
    kind = (
        pl.when(pl.col("normalized_value").is_not_null() & q.is_in(["number", "range", "above"]))
        .then(pl.lit(VALUE))
        .when((q == "below_reporting_limit") & pl.col("normalized_reporting_limit").is_not_null())
        .then(pl.lit(BELOW))
        .when(q.is_in(["below_reporting_limit", "not_detected"]))
        .then(pl.lit(NONE))
    )
    code = pl.col("parameter").replace_strict(inputs.codes, return_dtype=pl.Int64)
    level = (
        pl.when(kind == VALUE)
        .then(pl.col("normalized_value"))
        .when(kind == BELOW)
        .then(pl.col("normalized_reporting_limit"))
        .when(kind == NONE)
        .then(pl.lit(0.0))
    )
    # Only the columns needed later: every join below copies whatever is carried along.
    charted = measurements.filter(pl.col("parameter").is_in(inputs.charted.implode()))
    return shares.with_html_texts(charted).select(
        (pl.col("zone_id") * PARAMETER_SLOTS + code).alias("sid"),
        "zone_id",
        "parameter",
        "sampled_at",
        # How the value reads (in the limit's unit) and how it was published, as text.
        wording.SHOWN,
        pl.col(wording.PUBLISHED_TEXT).alias("published"),
        *shares.HTML_TEXTS,
        "sample_point",
        "statistic",
        kind.alias("kind"),
        _days(pl.col("sampled_at")).alias("t"),
        level.alias("level"),
    )


def _series(rows: pl.LazyFrame, as_of: dt.date) -> pl.LazyFrame:
    """Return one row per series (in run order) with counts, time window and `keep`."""
    drawn = pl.col("kind").is_not_null()
    series = rows.group_by(KEY, maintain_order=True).agg(
        pl.col("zone_id").first(),
        pl.col("parameter").first(),
        drawn.sum().alias("points"),
        pl.len().alias("count"),
        (pl.col("kind") == BELOW).sum().alias("below"),
        (pl.col("kind") == NONE).sum().alias("none"),
        pl.col("t").filter(drawn).min().alias("t_min"),
        pl.col("t").filter(drawn).max().alias("t_max"),
        pl.col("level").max().alias("y_data"),
        pl.col("sampled_at").min().alias("first"),
        pl.col("sampled_at").max().alias("last"),
        pl.col("shown").last().alias("last_shown"),
        pl.col("sample_point").first().alias("sample_point"),
        (pl.col("sample_point").n_unique() > 1).alias("many_points"),
    )
    keep = (pl.col("parameter").is_in(list(ALWAYS)) & (pl.col("points") >= 1)) | (
        pl.col("points") >= MIN_POINTS
    )
    # The time axis runs from the first value to the build's reference date (or the last
    # value if later), so a limit that starts in between shows as a step.
    span_end = pl.max_horizontal(pl.col("t_max"), pl.lit((as_of - EPOCH).days))
    pad = pl.max_horizontal(pl.lit(15), (span_end - pl.col("t_min")) // 25)
    return series.with_columns(
        keep.alias("keep"), (pl.col("t_min") - pad).alias("x0"), (span_end + pad).alias("x1")
    )


def _nice_axis(series: pl.LazyFrame) -> pl.LazyFrame:
    """Add `step`, `steps` and `top`: 2-4 steps of 1, 2, 5 or 10 times a power of ten."""
    raw = pl.max_horizontal(pl.col("y_data").fill_null(0), pl.col("y_limit").fill_null(0))
    target = pl.when(raw > 0).then(raw * 1.08).otherwise(pl.lit(1.0))
    base = pl.lit(10.0).pow((target / 4).log10().floor())
    mult = target / 4 / base
    step = (
        pl.when(mult <= 1)
        .then(base)
        .when(mult <= 2)
        .then(base * 2)
        .when(mult <= 5)
        .then(base * 5)
        .otherwise(base * 10)
    ).round_sig_figs(6)
    steps = (target / step).ceil().cast(pl.Int64)
    return series.with_columns(
        step.alias("step"), steps.alias("steps"), (step * steps).alias("top")
    )


def label_width(words: pl.Expr, weight: str = "regular") -> pl.Expr:
    """Estimate the width of a label on a phone, in chart units (at least what it takes)."""
    wide, narrow = EM[weight]
    n_narrow = words.str.count_matches(NARROW)
    return ((words.str.len_chars() - n_narrow) * wide + n_narrow * narrow) * PHONE_FONT


def _x(t: pl.Expr) -> pl.Expr:
    return LEFT + (t - pl.col("x0")) / (pl.col("x1") - pl.col("x0")) * PLOT_W


def _y(v: pl.Expr) -> pl.Expr:
    return BOTTOM - v / pl.col("top") * PLOT_H


def _limit_svg(segs: pl.LazyFrame) -> pl.LazyFrame:
    """Draw the limit as a step line with a label where each version starts."""
    segs = (
        segs.with_columns(
            _x(pl.col("s")).alias("xs"),
            _x(pl.col("e")).alias("xe"),
            _y(pl.col("level")).alias("yl"),
        )
        .sort(*KEY, "line", "s")
        .with_columns(
            (pl.col("e").shift(1).over(*KEY, "line") == pl.col("s"))
            .fill_null(False)
            .alias("joined")
        )
    )
    # A version that follows the previous one without a gap is joined by a vertical step.
    path = (
        pl.when(pl.col("joined"))
        .then(pl.format("V{}H{}", _fmt(pl.col("yl")), _fmt(pl.col("xe"))))
        .otherwise(
            pl.format("M{},{}H{}", _fmt(pl.col("xs")), _fmt(pl.col("yl")), _fmt(pl.col("xe")))
        )
    )
    since = (
        pl.when(pl.col("s") > pl.col("x0"))
        .then(pl.concat_str(pl.lit(" ab "), text.date_expr(_date_of(pl.col("s")))))
        .otherwise(pl.lit(""))
    )
    full = pl.concat_str(pl.col("kind").replace_strict(text.KINDS, default=pl.col("kind")), since)
    short_kind = pl.col("kind").replace_strict(text.SHORT_KINDS, default=pl.col("kind"))
    short = pl.concat_str(short_kind, since)
    # The ordinance's term where it fits the chart on a phone, else a short one with the
    # full term as its tooltip; the date goes last.
    room = WIDTH - 2 * EDGE
    words = (
        pl.when(label_width(pl.col("_full"), "bold") <= room)
        .then(pl.col("_full"))
        .when(label_width(pl.col("_short"), "bold") <= room)
        .then(pl.col("_short"))
        .otherwise(short_kind)
    )
    width = label_width(pl.col("_words"), "bold")
    # From where the version starts, or ending where it ends (or at the right edge), never
    # beyond either edge.
    fits = pl.col("xs") + 3 + width <= WIDTH - EDGE
    end = pl.min_horizontal(pl.col("xe") - 2, pl.lit(WIDTH - EDGE))
    x = pl.when(fits).then(pl.col("xs") + 3).otherwise(pl.max_horizontal(end, width + EDGE))
    # Above the line, or below it when the line runs along the top edge.
    label_y = (
        pl.when(pl.col("yl") - 5 < TOP + 10).then(pl.col("yl") + 14).otherwise(pl.col("yl") - 5)
    )
    label = pl.format(
        '<text class="ll" x="{}" y="{}"{}>{}{}</text>',
        _fmt(x),
        _fmt(label_y),
        pl.when(fits).then(pl.lit("")).otherwise(pl.lit(' text-anchor="end"')),
        pl.when(pl.col("_words") != pl.col("_full"))
        .then(pl.format("<title>{}</title>", pl.col("_full")))
        .otherwise(pl.lit("")),
        pl.col("_words"),
    )
    labelled = pl.col("line") != "value_min"  # a range is labelled once, at its top
    # Strings are formatted row-wise first: inside `agg` they would be evaluated group by
    # group, which is many times slower.
    return (
        segs.with_columns(full.alias("_full"), short.alias("_short"))
        .with_columns(words.alias("_words"))
        .with_columns(path.alias("_d"), pl.when(labelled).then(label).alias("_l"))
        .group_by(KEY)
        .agg(
            pl.col("_d").str.join("").alias("limit_d"),
            pl.col("_l").drop_nulls().str.join("").alias("limit_labels"),
        )
    )


Y_ROOM = LEFT - 5 - EDGE  # chart units left of the axis for a number, anchored at its end
MAX_STEPS = 6  # `_nice_axis` makes at most 4; the slack costs nothing
MAX_YEARS = 12  # labelled years per chart; longer windows label every 2nd, 5th, 10th year


def _y_axis(series: pl.LazyFrame) -> pl.LazyFrame:
    """Add `grid_d` and `y_labels`: a grid line and a German label per step."""
    # A fixed number of slots, each a row-wise expression: no explode, no regrouping.
    values = [(pl.col("step") * i).round_sig_figs(6) for i in range(MAX_STEPS + 1)]
    # The German numbers of all slots by one `number_expr` (long to plan), over a list.
    written = pl.concat_list(values).list.eval(text.number_expr(pl.element())).alias("_written")
    lines, labels = [], []
    for i, value in enumerate(values):
        y = _fmt(_y(value))
        on = pl.col("steps") >= i
        lines.append(pl.when(on).then(pl.format("M{},{}H{}", pl.lit(LEFT), y, pl.lit(RIGHT))))
        label = pl.col("_written").list.get(i)
        # A number wider than the room left of the axis (0,00005) is squeezed into it.
        squeeze = pl.when(label_width(label) > Y_ROOM).then(
            pl.lit(f' textLength="{Y_ROOM}" lengthAdjust="spacingAndGlyphs"')
        )
        labels.append(
            pl.when(on).then(
                pl.format(
                    '<text x="{}" y="{}"{}>{}</text>',
                    pl.lit(LEFT - 5),
                    _fmt(_y(value) + 4),
                    squeeze.otherwise(pl.lit("")),
                    label,
                )
            )
        )
    return (
        series.with_columns(written)
        .with_columns(
            pl.concat_str(lines, ignore_nulls=True).alias("grid_d"),
            pl.concat_str(labels, ignore_nulls=True).alias("y_labels"),
        )
        .drop("_written")
    )


def _x_axis(series: pl.LazyFrame) -> pl.LazyFrame:
    """Add `year_d` and `x_labels`: grid lines at labelled year boundaries."""
    y0 = _date_of(pl.col("x0")).dt.year()
    n_years = _date_of(pl.col("x1")).dt.year() - y0
    every = (
        pl.when(n_years > 5 * MAX_YEARS)
        .then(10)
        .when(n_years > 2 * MAX_YEARS)
        .then(5)
        .when(n_years > MAX_YEARS)
        .then(2)
        .otherwise(1)
    )
    # Intermediate columns keep the expression trees small (nested ones optimise slowly).
    slots = (
        series.with_columns(every.alias("_every"), y0.alias("_y0"))
        .with_columns(((pl.col("_y0") // pl.col("_every") + 1) * pl.col("_every")).alias("_y"))
        .with_columns(
            (pl.col("_y") + pl.col("_every") * j).alias(f"_y{j}") for j in range(MAX_YEARS + 1)
        )
        .with_columns(
            _x(_days(pl.date(pl.col(f"_y{j}"), 1, 1))).alias(f"_x{j}") for j in range(MAX_YEARS + 1)
        )
    )
    lines, labels = [], []
    for j in range(MAX_YEARS + 1):
        year, x = pl.col(f"_y{j}"), pl.col(f"_x{j}")
        on = x < RIGHT
        lines.append(pl.when(on).then(pl.format("M{},{}V{}", _fmt(x), pl.lit(TOP), pl.lit(BOTTOM))))
        # A label that would run off the right edge is left out.
        labels.append(
            pl.when(x + 3 + label_width(year.cast(pl.String)) <= WIDTH - EDGE).then(
                pl.format('<text x="{}" y="{}">{}</text>', _fmt(x + 3), pl.lit(BOTTOM + 20), year)
            )
        )
    x_labels = pl.concat_str(labels, ignore_nulls=True)
    return slots.with_columns(
        pl.concat_str(lines, ignore_nulls=True).alias("year_d"),
        pl.when(x_labels != "").then(x_labels).alias("x_labels"),
    ).drop([f"_{v}{j}" for v in "xy" for j in range(MAX_YEARS + 1)] + ["_y", "_y0", "_every"])


def chart_frame(measurements: pl.DataFrame, inputs: ChartInputs, as_of: dt.date) -> pl.DataFrame:
    """Return one row per chart: zone_id, parameter and `html` (the whole `<figure>`).

    `measurements` may be any slice of whole zones (the site renders zones in batches),
    sorted like `Derived.measurements`: by zone, parameter, date and sample point.
    """
    if len(inputs.codes) >= PARAMETER_SLOTS:
        raise ValueError(f"more than {PARAMETER_SLOTS} parameters: widen PARAMETER_SLOTS")
    rows = _plotted(measurements.lazy(), inputs).collect()
    if not rows["sid"].is_sorted():
        rows = rows.sort("sid", "sampled_at", "sample_point", nulls_last=False, maintain_order=True)
    rows = rows.with_columns(pl.col("sid").rle_id().alias("g"))
    stats = _series(rows.lazy(), as_of).collect()
    kept = stats.lazy().filter("keep")

    # Limit segments inside each series' time window, clipped to it.
    segs = (
        kept.select(*KEY, "parameter", "x0", "x1")
        .join(inputs.lines.lazy(), on="parameter")
        .with_columns(
            pl.max_horizontal("start", "x0").alias("s"),
            pl.min_horizontal(pl.col("end").fill_null(pl.col("x1")), "x1").alias("e"),
        )
        .filter(pl.col("s") < pl.col("e"))
    )
    y_limit = segs.group_by(KEY).agg(pl.col("level").max().alias("y_limit"))
    series = _nice_axis(kept.join(y_limit, on=KEY, how="left")).collect()

    # Hand each row its series' geometry (null where the series gets no chart).
    geo = stats.select(KEY).join(
        series.select(*KEY, "x0", "x1", "top", "many_points"),
        on=KEY,
        how="left",
        maintain_order="left",
    )
    run = rows["g"]
    rows = rows.with_columns(geo[c].gather(run) for c in ("x0", "x1", "top", "many_points")).filter(
        pl.col("top").is_not_null()
    )
    point = pl.concat_str(_fmt(_x(pl.col("t"))), pl.lit(","), _fmt(_y(pl.col("level"))))
    statistic = text.statistic_label(pl.col("statistic"))
    # A value that reads exactly as published fills both columns once (`colspan`), not twice.
    as_published = ((pl.col("shown") == pl.col("published")) & statistic.is_null()).fill_null(False)
    per_series = (
        rows.lazy()
        .with_columns(
            *(pl.when(pl.col("kind") == kind).then(point).alias(f"_p{kind}") for kind in KINDS),
            fragments.compile_fragment(
                inputs.row,
                {
                    "date": text.date_expr(pl.col("sampled_at")),
                    "shown": pl.col(shares.SHOWN_HTML),
                    "published": pl.col(shares.PUBLISHED_HTML),
                    "sample_point": pl.col("sample_point"),
                    "statistic": statistic,
                    "as_published": as_published,
                    "apart": ~as_published,
                    # One sample point for the whole series is named once, in the caption.
                    "many_points": pl.col("many_points"),
                },
            ).alias("_row"),
        )
        # Row order within a group is kept, so points and rows stay in date order.
        .group_by(KEY)
        .agg(
            pl.col("_row").str.join("").alias("rows"),
            *(pl.col(f"_p{kind}").str.join(" ").alias(f"p{kind}") for kind in KINDS),
        )
    )
    polyline = '<polyline class="{}" points="{{}}"/>'
    marks = pl.concat_str(
        *(
            pl.when(pl.col(f"p{kind}") != "")
            .then(pl.format(polyline.format(f"s{kind}"), pl.col(f"p{kind}")))
            .otherwise(pl.lit(""))
            for kind in KINDS
        )
    )
    lazy_series = series.lazy()
    limit_svg = _limit_svg(segs.join(lazy_series.select(*KEY, "top"), on=KEY))

    frame = (
        lazy_series.join(inputs.names.lazy(), on="parameter", how="left")
        .join(inputs.notes.lazy(), on="parameter", how="left")
        .join(per_series.with_columns(marks.alias("marks")), on=KEY, how="left")
        .join(limit_svg, on=KEY, how="left")
    )
    # Axes depend only on the scale and the time window, which many series share: draw
    # each distinct one once.
    y_axes = _y_axis(lazy_series.select("step", "steps", "top").unique()).drop("top")
    x_axes = _x_axis(lazy_series.select("x0", "x1").unique())
    frame = frame.join(y_axes, on=["step", "steps"], how="left").join(
        x_axes, on=["x0", "x1"], how="left"
    )
    return (
        frame.select("zone_id", "parameter", "name_de", _figure(inputs.figure).alias("html"))
        .sort("zone_id", "parameter")
        .collect()
    )


NO_LIMIT = "Kein Grenzwert festgelegt."


def _svg() -> pl.Expr:
    """Assemble the `<svg>` of each chart from its parts, with title and description."""
    note = pl.col("limit_note").fill_null(NO_LIMIT)
    last = pl.col("last_shown")
    hidden = pl.col("below") + pl.col("none")
    desc = pl.concat_str(
        pl.when(pl.col("count") == 1)
        .then(pl.format("Ein Wert vom {}: {}. ", text.date_expr(pl.col("first")), last))
        .otherwise(
            pl.format(
                "{} Werte vom {} bis {}, zuletzt {}. ",
                pl.col("count"),
                text.date_expr(pl.col("first")),
                text.date_expr(pl.col("last")),
                last,
            )
        ),
        pl.when(hidden > 0)
        .then(pl.format("{} davon unter der Bestimmungsgrenze oder nicht nachgewiesen. ", hidden))
        .otherwise(pl.lit("")),
        note,
    )
    title = pl.format(
        "Verlauf {} in {}",
        pl.col("name_de"),
        pl.when(pl.col("axis_unit") != "")
        .then(pl.col("axis_unit"))
        .otherwise(pl.lit("ohne Einheit")),
    )
    # A window without a year boundary is labelled with the month it starts in.
    start_label = pl.format(
        '<text x="{}" y="{}">{}</text>',
        pl.lit(LEFT + 3),
        pl.lit(BOTTOM + 20),
        _date_of(pl.col("x0") + 15).dt.strftime("%m/%Y"),
    )
    p = pl.col("parameter")
    return pl.concat_str(
        pl.format(
            f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
            'aria-labelledby="ct-{} cd-{}"><title id="ct-{}">',
            p,
            p,
            p,
        ),
        text.esc(title),
        pl.format('</title><desc id="cd-{}">', p),
        text.esc(desc),
        pl.lit('</desc><path class="g" d="'),
        pl.col("grid_d"),
        pl.col("year_d").fill_null(""),
        pl.lit('"/><g class="yt">'),
        pl.col("y_labels"),
        pl.lit("</g>"),
        pl.col("x_labels").fill_null(start_label),
        pl.when(pl.col("limit_d").is_not_null())
        .then(
            pl.format('<path class="limit" d="{}"/>{}', pl.col("limit_d"), pl.col("limit_labels"))
        )
        .otherwise(pl.lit("")),
        pl.col("marks"),
        pl.lit("</svg>"),
    )


def _figure(fragment: str) -> pl.Expr:
    """Fill templates/fragments/chart.html: heading, chart, caption and table fallback."""
    hidden = pl.col("below") + pl.col("none")
    return fragments.compile_fragment(
        fragment,
        {
            "parameter": pl.col("parameter"),
            "name_de": pl.col("name_de"),
            "axis_unit": pl.col("axis_unit"),
            "svg": _svg(),
            "caption": pl.concat_str(
                pl.col("limit_note").fill_null(NO_LIMIT),
                pl.when(hidden > 0)
                .then(
                    pl.format(
                        " {} der {} Werte lagen unter der Bestimmungsgrenze oder wurden nicht "
                        "nachgewiesen.",
                        hidden,
                        pl.col("count"),
                    )
                )
                .otherwise(pl.lit("")),
            ),
            "summary": pl.when(pl.col("count") == 1)
            .then(pl.lit("Den Wert als Tabelle"))
            .otherwise(pl.format("Alle {} Werte als Tabelle", pl.col("count"))),
            "rows": pl.col("rows"),
            "many_points": pl.col("many_points"),
            "one_point": ~pl.col("many_points") & pl.col("sample_point").is_not_null(),
            "sample_point": pl.col("sample_point"),
        },
    )
