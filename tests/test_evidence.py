"""Verdicts from evidence: every sample point, every statistic for what it proves.

The worked cases are the reports that gave false greens before: two waterworks sampled on
different days, single samples beside annual maxima, a minimum above a limit, a range over a
permitted range, "n.n." beside a reporting limit above the limit, published sums in every
form against open metabolites. Each zone is assessed by the build's own verdict code
(`tests/verdict_zones.py`). The invariants that no new case may break are in
`tests/test_evidence_properties.py`; what each kind of evidence proves is declared once
(`generator/api/evidence.py`) and shown in docs/api.md.
"""

from __future__ import annotations

import datetime as dt

import pytest

from generator.api import docs as api_docs
from generator.api import evidence
from tests.verdict_zones import assess, row

JUNE_3, JUNE_4 = dt.date(2026, 6, 3), dt.date(2026, 6, 4)
OLD = dt.date(2024, 5, 2)
"""More than the publication cadence (12 months) before the tests' as-of date."""


def points(value: dict) -> list[tuple]:
    return [(p["sample_point"], p["value_text"], p["state"]) for p in value["other_points"]]


def test_two_waterworks_sampled_on_different_days_both_stand():
    values, summary = assess(
        [
            row("nitrat", "58", "mg/l", JUNE_3, "Wasserwerk A"),
            row("nitrat", "22", "mg/l", JUNE_4, "Wasserwerk B"),
        ]
    )
    nitrate = values["nitrat"]
    assert (nitrate["sample_point"], nitrate["value_text"], nitrate["state"]) == (
        "Wasserwerk A",
        "58",
        "exceeds_limit",
    )
    assert points(nitrate) == [("Wasserwerk B", "22", "below_limit")]
    assert nitrate["other_points"][0]["sampled_at"] == JUNE_4
    assert (summary["status"], summary["exceeds_limit"]) == ("exceeds_limit", ["nitrat"])


def test_annual_maxima_at_one_works_beside_single_samples_at_another_are_not_dropped():
    values, summary = assess(
        [
            row("nitrat", "21", "mg/l", JUNE_3, "Wasserwerk A"),
            row("nitrat", "64", "mg/l", JUNE_3, "Wasserwerk B", statistic="max"),
            row("nitrat", "30", "mg/l", JUNE_3, "Wasserwerk B", statistic="mean"),
            row("pfas_summe_20", "0,03", "µg/l", JUNE_3, "Wasserwerk A"),
            row("pfas_summe_20", "0,18", "µg/l", JUNE_3, "Wasserwerk B", statistic="max"),
        ]
    )
    for code, shown in (("nitrat", "64"), ("pfas_summe_20", "0,18")):
        value = values[code]
        assert (value["sample_point"], value["statistic"], value["value_text"]) == (
            "Wasserwerk B",
            "max",
            shown,
        )
        assert value["state"] == "exceeds_limit"
    assert summary["status"] == "exceeds_limit"
    assert sorted(summary["exceeds_limit"]) == ["nitrat", "pfas_summe_20"]


def test_a_minimum_above_the_limit_proves_every_sample_was_above_it():
    values, _ = assess(
        [
            row("pfas_summe_20", "0,15", "µg/l", JUNE_3, statistic="min"),
            row("pfas_summe_20", "< 0,4", "µg/l", JUNE_3, statistic="max"),
        ]
    )
    pfas = values["pfas_summe_20"]
    assert (pfas["statistic"], pfas["value_text"], pfas["state"]) == (
        "min",
        "0,15",
        "exceeds_limit",
    )


def test_a_range_that_reaches_past_a_permitted_range_proves_a_deviation():
    values, _ = assess([row("ph_wert", "7,0 - 9,7", "", JUNE_3)])
    assert values["ph_wert"]["state"] == "outside_range"
    inside, _ = assess([row("ph_wert", "7,0 - 8,1", "", JUNE_3)])
    assert inside["ph_wert"]["state"] == "within_range"


def test_a_minimum_and_a_maximum_of_one_date_together_show_a_range_kept():
    values, _ = assess(
        [
            row("ph_wert", "7,1", "", JUNE_3, statistic="min"),
            row("ph_wert", "8,0", "", JUNE_3, statistic="max"),
        ]
    )
    assert values["ph_wert"]["state"] == "within_range"
    alone, _ = assess([row("ph_wert", "8,0", "", JUNE_3, statistic="max")])
    assert alone["ph_wert"]["state"] == "not_assessable"
    assert "eine Grenze" in alone["ph_wert"]["note_de"]


@pytest.mark.parametrize(
    ("code", "unit", "reporting_limit"),
    [("pfas_summe_20", "µg/l", "0,15"), ("nitrat", "mg/l", "55"), ("blei", "µg/l", "15")],
)
def test_no_tick_over_not_detected_with_a_reporting_limit_above_the_limit(
    code, unit, reporting_limit
):
    values, summary = assess([row(code, "n.n.", unit, JUNE_3, reporting_limit=reporting_limit)])
    assert values[code]["state"] == "not_assessable"
    assert "Bestimmungsgrenze" in values[code]["note_de"]
    assert summary["status"] != "complies"
    # The same cell beside a reporting limit below the limit, or with none, is not detected.
    values, _ = assess([row(code, "n.n.", unit, JUNE_3, reporting_limit="0,001")])
    assert values[code]["state"] == "not_detected"
    values, _ = assess([row(code, "n.n.", unit, JUNE_3)])
    assert values[code]["state"] == "not_detected"


def test_below_a_reporting_limit_the_larger_of_cell_and_column_counts():
    values, _ = assess([row("pfas_summe_20", "< 0,05", "µg/l", JUNE_3, reporting_limit="0,2")])
    assert values["pfas_summe_20"]["state"] == "not_assessable"
    values, _ = assess([row("pfas_summe_20", "< 0,05", "µg/l", JUNE_3, reporting_limit="0,01")])
    assert values["pfas_summe_20"]["state"] == "below_reporting_limit"


@pytest.mark.parametrize("published", ["0,2", "0,05 - 0,25", "< 0,3"])
def test_a_published_total_in_every_form_is_checked_against_open_metabolites(published):
    # AMPA's relevance is open: 0,6 µg/l of it could lift the total over 0,5 µg/l.
    values, summary = assess(
        [
            row("pestizide_gesamt", published, "µg/l", JUNE_3),
            row("glyphosat", "0,05", "µg/l", JUNE_3),
            row("ampa", "0,6", "µg/l", JUNE_3),
        ]
    )
    total = values["pestizide_gesamt"]
    assert total["state"] == "not_assessable", published
    assert "bis zu" in total["note_de"]
    assert "pestizide_gesamt" in summary["not_assessable"]


def test_an_old_point_is_listed_with_its_date_and_does_not_decide_beside_a_new_one():
    values, summary = assess(
        [
            row("nitrat", "61", "mg/l", OLD, "Brunnen 3"),
            row("nitrat", "24", "mg/l", JUNE_3, "Wasserwerk A"),
        ]
    )
    nitrate = values["nitrat"]
    assert (nitrate["sample_point"], nitrate["state"]) == ("Wasserwerk A", "below_limit")
    [old] = nitrate["other_points"]
    assert (old["sample_point"], old["state"], old["sampled_at"], old["old"]) == (
        "Brunnen 3",
        "exceeds_limit",
        OLD,
        True,
    )
    # Not an exceedance (the zone lacks the other key values, so no green headline either).
    assert (summary["status"], summary["exceeds_limit"]) == ("key_values_missing", [])
    # With no newer point beside it, an old point is all there is: it decides.
    values, summary = assess([row("nitrat", "61", "mg/l", OLD, "Brunnen 3")])
    assert (values["nitrat"]["state"], values["nitrat"]["old"]) == ("exceeds_limit", True)
    assert summary["status"] == "exceeds_limit"


def test_the_announced_summary_considers_every_point():
    # Lead: 7 µg/l complies today (10) but not from 2028 (5); the point shown is the other.
    values, summary = assess(
        [
            row("blei", "7", "µg/l", JUNE_3, "Netz Nord"),
            row("blei", "12", "µg/l", JUNE_3, "Netz Süd"),
        ]
    )
    assert values["blei"]["state"] == "exceeds_limit"
    assert values["blei"]["other_points"][0]["future_state"] == "exceeds_limit"
    assert "blei" in summary["exceeds_limit"]
    values, summary = assess(
        [
            row("blei", "7", "µg/l", JUNE_3, "Netz Nord"),
            row("blei", "< 1", "µg/l", JUNE_3, "Netz Süd"),
        ]
    )
    assert summary["announced"] == ["blei"]
    # The point shown cannot be assessed (n.n. beside 15 µg/l); the other will be above 5.
    values, summary = assess(
        [
            row("blei", "7", "µg/l", JUNE_3, "Netz Nord"),
            row("blei", "n.n.", "µg/l", JUNE_3, "Netz Süd", reporting_limit="15"),
        ]
    )
    assert (values["blei"]["sample_point"], values["blei"]["state"]) == (
        "Netz Süd",
        "not_assessable",
    )
    assert values["blei"]["future_state"] == "not_assessable"
    assert summary["announced"] == ["blei"]


def test_a_zone_whose_key_values_rest_on_old_samples_is_marked():
    rows = [
        row("nitrat", "20", "mg/l", OLD, "Brunnen 3", document_id="wk-2025"),
        row("blei", "2", "µg/l", JUNE_3),
    ]
    _, summary = assess(rows)
    assert summary["_zone"]["key_values_old_since"] == OLD
    _, summary = assess([row("nitrat", "20", "mg/l", JUNE_3), row("blei", "2", "µg/l", JUNE_3)])
    assert summary["_zone"]["key_values_old_since"] is None


def test_a_document_published_after_the_build_date_gives_no_value_yet():
    rows = [
        row("nitrat", "58", "mg/l", JUNE_3, document_id="wk-2026"),  # edition 2026-06-30
        row("nitrat", "20", "mg/l", dt.date(2025, 12, 1), document_id="wk-2025"),
    ]
    values, _ = assess(rows, as_of=dt.date(2026, 6, 20))
    assert (values["nitrat"]["value_text"], values["nitrat"]["document_id"]) == ("20", "wk-2025")
    values, _ = assess(rows, as_of=dt.date(2026, 7, 1))
    assert values["nitrat"]["value_text"] == "58"


@pytest.mark.parametrize("published", ["< 1", "negativ", "0"])
def test_a_count_with_a_limit_of_none_per_volume_reads_none_found_as_such(published):
    values, _ = assess([row("e_coli", published, "KBE/100 ml", JUNE_3)])
    expected = "below_limit" if published == "0" else "not_detected"
    assert values["e_coli"]["state"] == expected
    values, _ = assess([row("e_coli", "2", "KBE/100 ml", JUNE_3)])
    assert values["e_coli"]["state"] == "exceeds_limit"


def test_nitrite_at_the_works_outlet_is_compared_with_its_own_value():
    values, _ = assess([row("nitrit", "0,2", "mg/l", JUNE_3, "Wasserwerk Nord, Ausgang")])
    nitrite = values["nitrit"]
    assert (nitrite["state"], nitrite["limit"]["value"]) == ("exceeds_limit", 0.1)
    values, _ = assess([row("nitrit", "0,2", "mg/l", JUNE_3, "Netz Nord")])
    assert (values["nitrit"]["state"], values["nitrit"]["limit"]["value"]) == ("below_limit", 0.5)


def test_a_sum_of_members_all_below_their_reporting_limits_states_the_summing_rule():
    from generator.ordinance.sums import PFAS_20

    values, _ = assess([row(code, "< 0,01", "µg/l", JUNE_3) for code in PFAS_20])
    pfas = values["pfas_summe_20"]
    assert (pfas["origin"], pfas["normalized_value"], pfas["state"]) == (
        "computed",
        0.0,
        "below_limit",
    )
    assert "bei der Summenbildung nicht berücksichtigt" in pfas["note_de"]


def test_the_table_of_what_evidence_proves_is_the_one_in_docs():
    page = api_docs.PAGE.read_text(encoding="utf-8")
    assert evidence.table() in page
    assert api_docs.refresh(page) == page


def test_every_single_zone_plz_page_says_what_its_zone_resource_says(sample_build):
    """For a PLZ with one zone, the page's headline and badge are the zone's summary."""
    from generator.api import verdicts as verdict_words
    from tests.helpers import tree_json
    from tests.site_helpers import find, page, text_of

    lookups = sorted((sample_build / "_data/v1/lookup").glob("*.json"))
    checked = 0
    for path in lookups:
        lookup = tree_json(path)
        zones = lookup["zones"]
        if len(zones) != 1:
            continue
        zone_id = zones[0]["zone_id"]
        summary = tree_json(sample_build / f"_data/v1/zones/{zone_id}.json")["summary"]
        tree = page(sample_build, f"/plz/{lookup['plz']}/")
        [verdict] = [p for p in find(tree, "p") if "verdict" in (p.get("class") or "")]
        assert f"summary-{verdict_words.SUMMARY_TONES[summary['status']]}" in verdict.get("class")
        assert text_of(find(verdict, "strong")[0]) == summary["title_de"], lookup["plz"]
        checked += 1
    assert checked > 20
