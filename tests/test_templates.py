"""`{name}` templates filled per row: the same text as `messages.fill` and the one-value URLs."""

from __future__ import annotations

import polars as pl
import pytest

from generator.api import routes
from generator.api.messages import fill
from generator.api.templates import template_expr
from generator.site import urls

FRAME = pl.DataFrame({"zone_id": [11, 12], "code": ["blei", None], "plz": ["01067", "76437"]})


def test_a_template_reads_per_row_as_fill_reads_it_once() -> None:
    template = "Zone {zone_id}: {code} ({zone_id})"
    filled = FRAME.select(
        template_expr(template, {"zone_id": pl.col("zone_id"), "code": pl.col("code")})
    )
    assert filled.to_series().to_list() == [fill(template, {"zone_id": 11, "code": "blei"}), None]


def test_a_placeholder_without_a_value_is_named() -> None:
    with pytest.raises(KeyError, match=r"\{plz\}"):
        template_expr("/plz/{plz}/", {"zone_id": pl.col("zone_id")})


def test_urls_per_row_are_the_urls_of_one_value() -> None:
    rows = FRAME.select(
        urls.url_expr("plz", plz=pl.col("plz")).alias("page"),
        routes.url_expr(
            "zone_measurements", zone_id=pl.col("zone_id"), parameter=pl.lit("blei")
        ).alias("api"),
    )
    assert rows["page"].to_list() == [urls.url("plz", plz=p) for p in FRAME["plz"]]
    assert rows["api"].to_list() == [
        routes.url("zone_measurements", zone_id=z, parameter="blei") for z in FRAME["zone_id"]
    ]
    files = routes.file_paths("zone", FRAME["zone_id"])
    assert files == [routes.file_path("zone", zone_id=z) for z in FRAME["zone_id"]]
