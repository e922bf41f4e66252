"""Classification of current values against the limit valid on --as-of (and future limits)."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from generator.api import verdicts
from generator.api.resources import STATES
from generator.derive import with_values
from generator.load import load
from generator.ordinance.classify import assess
from tests.helpers import AS_OF, GOLDEN_INPUT

D = dt.date


def classify(values: pl.DataFrame, limits, params, as_of) -> pl.DataFrame:
    """Assess each row as a single sample at a sample point of its own, in their order."""
    alone = values.with_columns(
        pl.int_range(values.height, dtype=pl.Int64).alias("zone_id"),
        pl.lit(None, pl.String).alias("sample_point"),
        pl.lit("sample").alias("statistic"),
        pl.lit("d").alias("document_id"),
    )
    return assess(alone, limits, params, as_of).sort("zone_id")


@pytest.fixture(scope="module")
def reference():
    data = with_values(load(GOLDEN_INPUT))
    return data.limits, data.parameters


def state_of(
    reference,
    parameter,
    qualifier,
    value=None,
    reporting_limit=None,
    as_of=AS_OF,
    limits=None,
):
    ref_limits, params = reference
    values = pl.DataFrame(
        {
            "parameter": [parameter],
            "qualifier": [qualifier],
            "normalized_value": [value],
            "normalized_reporting_limit": [reporting_limit],
        },
        schema={
            "parameter": pl.String,
            "qualifier": pl.String,
            "normalized_value": pl.Float64,
            "normalized_reporting_limit": pl.Float64,
        },
    )
    row = classify(values, ref_limits if limits is None else limits, params, as_of).row(
        0, named=True
    )
    return row


@pytest.mark.parametrize(
    ("case", "qualifier", "value", "rl", "expected"),
    [
        ("value equal to the limit", "number", 0.1, None, "below_limit"),
        ("value just above", "number", 0.1000001, None, "exceeds_limit"),
        ("well below", "number", 0.018, None, "below_limit"),
        (
            "< x with x below the limit",
            "below_reporting_limit",
            None,
            0.05,
            "below_reporting_limit",
        ),
        (
            "< x with x equal to the limit",
            "below_reporting_limit",
            None,
            0.1,
            "below_reporting_limit",
        ),
        ("< x with x above the limit", "below_reporting_limit", None, 0.2, "not_assessable"),
        ("< BG without a number", "below_reporting_limit", None, None, "not_assessable"),
        ("not detected", "not_detected", None, None, "not_detected"),
        ("text value", "text", None, None, "not_assessable"),
        ("range below", "range", 0.08, None, "below_limit"),
        ("range up to the limit", "range", 0.1, None, "below_limit"),
        # A range is judged by its upper bound, the conservative value.
        ("range across the limit", "range", 0.3, None, "exceeds_limit"),
        ("> x above the limit", "above", 0.5, None, "exceeds_limit"),
        ("> x below the limit", "above", 0.05, None, "not_assessable"),
    ],
)
def test_pfas20_edges(reference, case, qualifier, value, rl, expected):
    row = state_of(reference, "pfas_summe_20", qualifier, value, rl)
    assert row["state"] == expected, case
    assert row["limit"]["value"] == 0.1 and row["limit"]["unit"] == "µg/l"


def test_pfas20_before_and_after_2026_01_12(reference):
    before = state_of(reference, "pfas_summe_20", "number", 0.14, as_of=D(2026, 1, 11))
    assert before["state"] == "no_limit" and before["limit"] is None
    assert before["future_state"] == "exceeds_limit"
    assert before["future_limit"]["valid_from"] == D(2026, 1, 12)
    on_the_day = state_of(reference, "pfas_summe_20", "number", 0.14, as_of=D(2026, 1, 12))
    assert on_the_day["state"] == "exceeds_limit"
    assert on_the_day["future_state"] is None and on_the_day["future_limit"] is None


def test_limit_starting_the_day_after_as_of(reference):
    row = state_of(reference, "pfas_summe_4", "number", 0.031, as_of=D(2028, 1, 11))
    assert row["state"] == "no_limit"
    assert row["future_state"] == "exceeds_limit"
    assert row["future_limit"]["value"] == 0.02
    assert row["future_limit"]["valid_from"] == D(2028, 1, 12)
    row = state_of(reference, "pfas_summe_4", "number", 0.031, as_of=D(2028, 1, 12))
    assert row["state"] == "exceeds_limit" and row["future_state"] is None


@pytest.mark.parametrize(
    ("parameter", "value", "state", "future_state", "future_value"),
    [
        ("blei", 7.1, "below_limit", "exceeds_limit", 5.0),
        ("blei", 4.0, "below_limit", "below_limit", 5.0),
        ("chrom", 12.0, "below_limit", "exceeds_limit", 5.0),
        ("arsen", 6.0, "below_limit", "exceeds_limit", 4.0),
    ],
)
def test_announced_stricter_limits(reference, parameter, value, state, future_state, future_value):
    row = state_of(reference, parameter, "number", value)
    assert (row["state"], row["future_state"]) == (state, future_state)
    assert row["future_limit"]["value"] == future_value


def test_no_limit_for_the_parameter(reference):
    row = state_of(reference, "temperatur", "number", 12.6)
    assert row["state"] == "no_limit" and row["future_state"] is None


def test_range_limit_for_ph(reference):
    assert state_of(reference, "ph_wert", "number", 7.6)["state"] == "within_range"
    assert state_of(reference, "ph_wert", "number", 9.6)["state"] == "outside_range"
    assert state_of(reference, "ph_wert", "number", 6.5)["state"] == "within_range"


def test_qualitative_requirement(reference):
    assert state_of(reference, "geruch", "text")["state"] == "requirement"


def test_unconvertible_unit(reference):
    ref_limits, params = reference
    odd = ref_limits.filter(pl.col("code") == "nitrat").with_columns(pl.lit("µS/cm").alias("unit"))
    row = state_of(reference, "nitrat", "number", 20.0, limits=odd)
    assert row["state"] == "unit_mismatch"


def test_units_are_converted_before_comparing(reference):
    ref_limits, _ = reference
    # The same PFAS-20 limit written in ng/l must classify exactly like the µg/l one.
    in_ng = ref_limits.filter(pl.col("code") == "pfas_summe_20").with_columns(
        pl.lit("ng/l").alias("unit"), pl.lit(100.0).alias("value")
    )
    assert (
        state_of(reference, "pfas_summe_20", "number", 0.1, limits=in_ng)["state"] == "below_limit"
    )
    assert (
        state_of(reference, "pfas_summe_20", "number", 0.11, limits=in_ng)["state"]
        == "exceeds_limit"
    )


def test_every_state_is_documented():
    from pathlib import Path

    doc = (Path(__file__).parents[1] / "docs" / "api.md").read_text(encoding="utf-8")
    for state in STATES:
        assert f"`{state}`" in doc


# ---------------------------------------------------------------------------- kinds of values


@pytest.mark.parametrize(
    ("case", "parameter", "value", "state", "kind", "limit"),
    [
        ("pesticide at the limit", "atrazin", 0.1, "below_limit", "grenzwert", 0.1),
        ("pesticide just above", "atrazin", 0.1000001, "exceeds_limit", "grenzwert", 0.1),
        ("single pesticide above 0.1", "bentazon", 0.12, "exceeds_limit", "grenzwert", 0.1),
        ("relevant metabolite above", "desethylatrazin", 0.11, "exceeds_limit", "grenzwert", 0.1),
        ("aldrin at 0.03", "aldrin", 0.03, "below_limit", "grenzwert", 0.03),
        # 0.05 would comply with the general 0.1: aldrin's own value is stricter.
        ("aldrin above 0.03", "aldrin", 0.05, "exceeds_limit", "grenzwert", 0.03),
        ("heptachlor epoxide above", "heptachlorepoxid", 0.031, "exceeds_limit", "grenzwert", 0.03),
        ("non-relevant metabolite", "desphenylchloridazon", 5.0, "no_limit", None, None),
        ("guidance value kept", "dimethylsulfamid", 1.0, "below_limit", "orientierungswert", 1.0),
        (
            "guidance value exceeded",
            "dimethylsulfamid",
            1.5,
            "exceeds_guidance",
            "orientierungswert",
            1.0,
        ),
        # The ordinance's duties start when the action value is "erreicht" (§ 51 (1)).
        (
            "Legionella at the action value",
            "legionella",
            100.0,
            "reaches_action_value",
            "massnahmenwert",
            100.0,
        ),
        ("Legionella below", "legionella", 99.0, "below_limit", "massnahmenwert", 100.0),
        ("Legionella above", "legionella", 150.0, "reaches_action_value", "massnahmenwert", 100.0),
        # A Grenzwert is only "überschritten" above it.
        ("nitrate at the limit", "nitrat", 50.0, "below_limit", "grenzwert", 50.0),
        ("radon at the parameter value", "radon_222", 100.0, "below_limit", "parameterwert", 100.0),
        ("radon above", "radon_222", 120.0, "exceeds_guidance", "parameterwert", 100.0),
        (
            "coliphages above",
            "somatische_coliphagen",
            60.0,
            "exceeds_guidance",
            "referenzwert",
            50.0,
        ),
        ("iron above", "eisen", 0.35, "exceeds_indicator", "indicator", 0.2),
        ("pH outside", "ph_wert", 9.6, "outside_range", "range", None),
        ("lead above", "blei", 11.0, "exceeds_limit", "grenzwert", 10.0),
    ],
)
def test_the_kind_of_value_decides_what_above_means(
    reference, case, parameter, value, state, kind, limit
):
    row = state_of(reference, parameter, "number", value)
    assert row["state"] == state, case
    assert (row["limit"] or {}).get("kind") == kind, case
    assert (row["limit"] or {}).get("value") == limit, case


@pytest.mark.parametrize(
    ("case", "qualifier", "value", "rl", "state", "reason"),
    [
        ("< x above the limit", "below_reporting_limit", None, 0.5, "not_assessable", "rl_above"),
        ("< BG", "below_reporting_limit", None, None, "not_assessable", "rl_missing"),
        ("> x below", "above", 0.05, None, "not_assessable", "above_below"),
        ("text", "text", None, None, "not_assessable", "no_number"),
        ("range across", "range", 0.3, None, "exceeds_limit", "range_above"),
        ("plain number", "number", 0.05, None, "below_limit", None),
    ],
)
def test_a_verdict_that_needs_words_gets_a_reason(
    reference, case, qualifier, value, rl, state, reason
):
    row = state_of(reference, "pfas_summe_20", qualifier, value, rl)
    assert (row["state"], row["reason"]) == (state, reason), case


def test_a_range_across_a_guidance_value_is_above_it(reference):
    row = state_of(reference, "legionella", "range", 300.0)
    assert row["state"] == "reaches_action_value"
    assert state_of(reference, "radon_222", "range", 300.0)["state"] == "exceeds_guidance"


def test_a_value_reported_below_the_action_value_does_not_reach_it(reference):
    assert state_of(reference, "legionella", "below_reporting_limit", None, 100.0)["state"] == (
        "below_reporting_limit"
    )
    assert state_of(reference, "legionella", "above", 100.0)["state"] == "reaches_action_value"


def test_every_kind_says_which_comparison_applies():
    for name, kind in verdicts.KINDS.items():
        assert kind.comparison in ("exceeded", "reached", "outside"), name
        assert kind.exceeded is None or kind.wording_de, name
    assert verdicts.REACHED_KINDS == ("massnahmenwert",)


@pytest.mark.parametrize(
    ("case", "assess", "state"),
    [
        ("complete sum below", {}, "below_limit"),
        ("members missing", {"assess_incomplete": True}, "not_assessable"),
        ("an open member would lift it above", {"assess_upper": 0.12}, "not_assessable"),
        ("an open member keeps it below", {"assess_upper": 0.1}, "below_limit"),
        (
            "a member's reporting limit above the limit",
            {"assess_blocking_rl": 0.5},
            "not_assessable",
        ),
        ("a member's reporting limit at the limit", {"assess_blocking_rl": 0.1}, "below_limit"),
    ],
)
def test_a_sum_complies_only_when_its_members_show_it(reference, case, assess, state):
    ref_limits, params = reference
    columns = {
        "parameter": ["pfas_summe_20"],
        "qualifier": ["number"],
        "normalized_value": [0.08],
        "normalized_reporting_limit": [None],
        "assess_value": [0.08],
        "assess_upper": [assess.get("assess_upper", 0.08)],
        "assess_blocking_rl": [assess.get("assess_blocking_rl")],
        "assess_incomplete": [assess.get("assess_incomplete", False)],
    }
    values = pl.DataFrame(
        columns,
        schema={
            "parameter": pl.String,
            "qualifier": pl.String,
            "normalized_value": pl.Float64,
            "normalized_reporting_limit": pl.Float64,
            "assess_value": pl.Float64,
            "assess_upper": pl.Float64,
            "assess_blocking_rl": pl.Float64,
            "assess_incomplete": pl.Boolean,
        },
    )
    row = classify(values, ref_limits, params, AS_OF).row(0, named=True)
    assert row["state"] == state, case
    # Above the limit it is exceeded whatever the members leave open.
    values = values.with_columns(pl.lit(0.12).alias("assess_value"))
    assert classify(values, ref_limits, params, AS_OF)["state"][0] == "exceeds_limit"
