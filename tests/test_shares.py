"""How values read on the site: the limit's unit, German numbers, the share, the published text."""

from __future__ import annotations

import polars as pl
import pytest

from generator.api import verdicts
from generator.site import shares
from generator.values import wording

COLUMNS = {
    "normalized_value": pl.Float64,
    "normalized_reporting_limit": pl.Float64,
    "qualifier": pl.String,
    "value_text": pl.String,
    "unit": pl.String,
    "normalized_unit": pl.String,
    "kind": pl.String,
    "level": pl.Float64,
}


def read(*rows: tuple) -> list[tuple[str | None, str | None, str | None]]:
    """(shown, published beside it, share) for rows in the order of COLUMNS."""
    frame = pl.DataFrame(list(rows), schema=COLUMNS, orient="row").with_columns(
        pl.struct(pl.col("kind"), pl.col("level").alias("value")).alias("limit")
    )
    return (
        wording.with_readings(frame)
        .select(
            wording.SHOWN,
            wording.published_expr().alias("published"),
            shares.share_expr(pl.col("limit")).alias("share"),
        )
        .rows()
    )


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        # A supplier's `15.3 ug/l` reads in the limit's unit, German, with its share.
        (
            (0.0153, None, "number", "15.3", "ug/l", "µg/l", "grenzwert", 0.1),
            ("0,0153 µg/l", "15.3 ug/l", "15 % des Grenzwerts"),
        ),
        # ng/l next to a limit in µg/l: one unit for both.
        (
            (0.0053, None, "number", "5,3", "ng/l", "µg/l", "grenzwert", 0.1),
            ("0,0053 µg/l", "5,3 ng/l", "5 % des Grenzwerts"),
        ),
        # Already written as shown: nothing repeated beside it.
        (
            (12.8, None, "number", "12,8", "mg/l", "mg/l", "grenzwert", 50.0),
            ("12,8 mg/l", None, "26 % des Grenzwerts"),
        ),
        # A reporting limit in words, its share an upper bound.
        (
            (None, 0.005, "below_reporting_limit", "< 0,005", "µg/l", "µg/l", "grenzwert", 0.1),
            (
                "unter der Bestimmungsgrenze von 0,005 µg/l",
                "< 0,005 µg/l",
                "unter 5 % des Grenzwerts",
            ),
        ),
        # `< BG`: the abbreviation spelled out, no share without a number.
        (
            (None, None, "below_reporting_limit", "< BG", "ng/l", "µg/l", "grenzwert", 0.1),
            ("unter der Bestimmungsgrenze", "< BG", None),
        ),
        # A word never carries a unit.
        (
            (None, None, "not_detected", "n.n.", "µg/l", "µg/l", "grenzwert", 0.1),
            ("nicht nachweisbar", "n.n.", None),
        ),
        (
            (None, None, "not_detected", "nicht nachweisbar", "µg/l", "µg/l", "grenzwert", 0.1),
            ("nicht nachweisbar", None, None),
        ),
        # A range counts with its upper bound, and says so.
        (
            (4.0, None, "range", "0,001 - 0,004", "mg/l", "µg/l", "grenzwert", 10.0),
            ("bis 4 µg/l", "0,001 - 0,004 mg/l", "bis 40 % des Grenzwerts"),
        ),
        (
            (600.0, None, "above", "> 600", "µg/l", "µg/l", "massnahmenwert", 100.0),
            ("über 600 µg/l", "> 600 µg/l", "über 600 % des technischen Maßnahmenwerts"),
        ),
        # Just below and just above: never rounded onto or across the limit.
        (
            (0.0999, None, "number", "0,0999", "µg/l", "µg/l", "grenzwert", 0.1),
            ("0,0999 µg/l", None, "99 % des Grenzwerts"),
        ),
        (
            (0.1001, None, "number", "0,1001", "µg/l", "µg/l", "grenzwert", 0.1),
            ("0,1001 µg/l", None, "101 % des Grenzwerts"),
        ),
        (
            (0.1, None, "number", "0,1", "µg/l", "µg/l", "grenzwert", 0.1),
            ("0,1 µg/l", None, "100 % des Grenzwerts"),
        ),
        (
            (0.0004, None, "number", "0,0004", "µg/l", "µg/l", "grenzwert", 0.1),
            ("0,0004 µg/l", None, "unter 1 % des Grenzwerts"),
        ),
        (
            (14.1, None, "number", "14,1", "µg/l", "µg/l", "grenzwert", 0.1),
            ("14,1 µg/l", None, "14.100 % des Grenzwerts"),
        ),
        # Other kinds are named as what they are.
        (
            (701.0, None, "number", "0.701", "mS/cm", "µS/cm", "indicator", 2790.0),
            ("701 µS/cm (25 °C)", "0.701 mS/cm", "25 % des Grenzwerts für Indikatorparameter"),
        ),
        (
            (0.3, None, "number", "0,3", "µg/l", "µg/l", "orientierungswert", 1.0),
            ("0,3 µg/l", None, "30 % des gesundheitlichen Orientierungswerts (UBA)"),
        ),
        # No share: a range of values (pH), a limit of zero (E. coli), no limit at all.
        ((7.6, None, "number", "7,6", "", "", "range", None), ("7,6", None, None)),
        (
            (0.0, None, "number", "0", "KBE/100 ml", "count/100 ml", "grenzwert", 0.0),
            ("0 KBE/100 ml", None, None),
        ),
        (
            (83.1, None, "number", "83.1", "mg/l", "mg/l", None, None),
            ("83,1 mg/l", "83.1 mg/l", None),
        ),
        # Words and abbreviations of a verbal finding.
        ((None, None, "text", "o.B.", "", "", None, None), ("ohne Befund", "o.B.", None)),
        ((None, None, "text", "farblos", "", "", None, None), ("farblos", None, None)),
        (
            (None, None, "not_determined", "n.b.", "µg/l", "µg/l", None, None),
            ("nicht bestimmt", "n.b.", None),
        ),
        # Nothing published: nothing shown.
        ((None, None, None, None, None, "µg/l", "grenzwert", 0.1), (None, None, None)),
    ],
)
def test_values_read_in_the_limits_unit_with_their_share(row, expected):
    assert read(row) == [expected]


def test_an_announced_limit_names_its_date():
    frame = pl.DataFrame(
        [(0.026, None, "number", "0.026", "ug/l", "µg/l", "grenzwert", 0.02)],
        schema=COLUMNS,
        orient="row",
    ).with_columns(pl.struct(pl.col("kind"), pl.col("level").alias("value")).alias("limit"))
    share = frame.select(shares.share_expr(pl.col("limit"), pl.lit(" ab 12.01.2028"))).item()
    assert share == "130 % des Grenzwerts ab 12.01.2028"


def test_every_kind_with_a_number_has_its_share_words():
    assert set(shares.SHARE_OF) == set(verdicts.NUMERIC_LIMIT_KINDS)
    for kind, words in shares.SHARE_OF.items():
        # The verdict words, declined: "technischer Maßnahmenwert" -> "des technischen
        # Maßnahmenwerts". Every noun of the kind's name is kept.
        nouns = [w for w in verdicts.KINDS[kind].name_de.split() if w[0].isupper()]
        assert words.startswith("des ") and all(n in words for n in nouns), (kind, words)
