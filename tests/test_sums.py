"""Sums of the ordinance computed from their members, cross-checks, and the nitrate rule.

Each case publishes values for zone 23 of the tiny dataset (which has none of its own), runs
the derive stage and reads the zone's current values and checks as the API returns them.
"""

from __future__ import annotations

import datetime as dt

import pytest

from generator import derive, load
from generator.ordinance import sums
from generator.values import published
from tests.helpers import AS_OF, append

ZONE = 23
LATER = dt.date(2028, 6, 1)  # PFAS-4 is in force


def publish(data_dir, *values, sampled_at="2026-04-01", point="Brunnen Ost"):
    for parameter, text, unit in values:
        append(
            data_dir,
            "measurements",
            zone_id=str(ZONE),
            parameter=parameter,
            sampled_at=sampled_at,
            value_text=text,
            unit=unit,
            document_id="zs-2026",
            sample_point=point,
        )


def zone(data_dir, as_of=AS_OF) -> tuple[dict, dict, derive.Derived]:
    d = derive.derive(load.load(data_dir), as_of)
    # As rendered: with the cited document and the series' address (`with_links`).
    rows = derive.with_links(d.current_values.all().filter(zone_id=ZONE), d.documents)
    values = {r["parameter"]: r for r in rows.iter_rows(named=True)}
    checks = {r["code"]: r for r in d.zones.filter(zone_id=ZONE)["checks"][0]}
    return values, checks, d


def test_members_without_a_sum_read_as_the_sum(tiny_data):
    publish(
        tiny_data, ("pfoa", "0,05", "µg/l"), ("pfos", "0,04", "µg/l"), ("pfhxs", "0,03", "µg/l")
    )
    values, _, d = zone(tiny_data)
    pfas = values["pfas_summe_20"]
    assert (pfas["origin"], pfas["value_text"], pfas["normalized_value"]) == (
        "computed",
        "0,12",
        0.12,
    )
    assert pfas["state"] == "exceeds_limit" and pfas["limit"]["value"] == 0.1
    assert pfas["provenance"]["document_id"] == "zs-2026"
    assert (pfas["sampled_at"], pfas["sample_point"]) == (dt.date(2026, 4, 1), "Brunnen Ost")
    computed = pfas["computed"]
    assert [(m["parameter"], m["value_text"], m["counted"]) for m in computed["members"]] == [
        ("pfhxs", "0,03", "added"),
        ("pfoa", "0,05", "added"),
        ("pfos", "0,04", "added"),
    ]
    assert len(computed["missing"]) == 17 and "pfna" in computed["missing"]
    assert computed["reported_value"] is None and computed["consistent"] is None
    assert pfas["note_de"].startswith("Berechnet aus den Einzelstoffen derselben Probe")
    assert pfas["measurements_url"] == f"/v1/zones/{ZONE}/measurements"
    # Computed values stay out of the published series.
    series = d.measurements.filter(zone_id=ZONE)
    assert set(series["parameter"]) == {"pfoa", "pfos", "pfhxs"}


def test_members_below_the_limit_without_all_of_them_show_no_compliance(tiny_data):
    publish(tiny_data, ("pfoa", "0,01", "µg/l"), ("pfos", "0,02", "µg/l"))
    pfas = zone(tiny_data)[0]["pfas_summe_20"]
    assert (pfas["normalized_value"], pfas["state"]) == (0.03, "not_assessable")
    assert "Nicht veröffentlicht sind 18 der 20 Einzelstoffe" in pfas["note_de"]


def test_a_complete_sum_below_its_limit_complies(tiny_data):
    publish(
        tiny_data,
        ("pfoa", "0,005", "µg/l"),
        ("pfna", "< 0,001", "µg/l"),
        ("pfhxs", "0,004", "µg/l"),
        ("pfos", "6", "ng/l"),
    )
    pfas4 = zone(tiny_data, LATER)[0]["pfas_summe_4"]
    assert (pfas4["normalized_value"], pfas4["state"]) == (0.015, "below_limit")
    counted = {m["parameter"]: m["counted"] for m in pfas4["computed"]["members"]}
    assert counted == {
        "pfoa": "added",
        "pfna": "below_reporting_limit",  # not added: TrinkwV Anlage 2
        "pfhxs": "added",
        "pfos": "added",
    }
    assert pfas4["computed"]["missing"] == []


def test_a_member_below_a_reporting_limit_above_the_limit_leaves_it_open(tiny_data):
    publish(
        tiny_data,
        ("pfoa", "0,005", "µg/l"),
        ("pfna", "< 0,05", "µg/l"),
        ("pfhxs", "0,004", "µg/l"),
        ("pfos", "0,006", "µg/l"),
    )
    pfas4 = zone(tiny_data, LATER)[0]["pfas_summe_4"]
    assert (pfas4["normalized_value"], pfas4["state"]) == (0.015, "not_assessable")
    assert "„< 0,05“ angegeben, über dem Grenzwert" in pfas4["note_de"]


def test_a_reported_sum_smaller_than_its_members_is_judged_by_the_members(tiny_data):
    publish(
        tiny_data,
        ("pfas_summe_20", "0,05", "µg/l"),
        ("pfoa", "0,06", "µg/l"),
        ("pfos", "0,07", "µg/l"),
    )
    pfas = zone(tiny_data)[0]["pfas_summe_20"]
    assert (pfas["origin"], pfas["value_text"]) == ("published", "0,05")  # verbatim
    assert pfas["computed"]["consistent"] is False
    assert (pfas["computed"]["value"], pfas["computed"]["reported_value"]) == (0.13, 0.05)
    assert pfas["state"] == "exceeds_limit"
    assert "passen nicht zusammen" in pfas["note_de"]


def test_a_reported_sum_within_the_tolerance_is_consistent(tiny_data):
    publish(
        tiny_data,
        ("pfas_summe_20", "0,1", "µg/l"),
        ("pfoa", "0,054", "µg/l"),
        ("pfos", "0,05", "µg/l"),
    )
    pfas = zone(tiny_data)[0]["pfas_summe_20"]
    assert (
        pfas["computed"]["consistent"] is True and pfas["computed"]["tolerance"] == sums.TOLERANCE
    )
    assert pfas["state"] == "below_limit"  # the published 0.1, at the limit


def test_a_reported_sum_below_its_reporting_limit_is_cross_checked_too(tiny_data):
    publish(tiny_data, ("pfas_summe_4", "< 0,02", "µg/l"), ("pfoa", "0,05", "µg/l"))
    pfas4 = zone(tiny_data, LATER)[0]["pfas_summe_4"]
    assert pfas4["computed"]["consistent"] is False
    assert pfas4["state"] == "exceeds_limit"


def test_pesticides_total_above_its_limit_with_every_pesticide_below_its_own(tiny_data):
    singles = ("atrazin", "simazin", "diuron", "isoproturon", "bentazon", "glyphosat")
    publish(tiny_data, *((code, "0,09", "µg/l") for code in singles))
    values = zone(tiny_data)[0]
    assert {values[c]["state"] for c in singles} == {"below_limit"}
    total = values["pestizide_gesamt"]
    assert (total["origin"], total["state"], total["limit"]["value"]) == (
        "computed",
        "exceeds_limit",
        0.5,
    )
    assert total["normalized_value"] == pytest.approx(0.54)


def test_open_and_non_relevant_metabolites_in_the_pesticides_total(tiny_data):
    singles = ("atrazin", "simazin", "diuron", "isoproturon", "bentazon")
    publish(
        tiny_data,
        *((code, "0,09", "µg/l") for code in singles),
        ("metolachlor_esa", "0,1", "µg/l"),  # relevance open
        ("desphenylchloridazon", "3,0", "µg/l"),  # not relevant: never in the total
    )
    values = zone(tiny_data)[0]
    total = values["pestizide_gesamt"]
    assert total["normalized_value"] == pytest.approx(0.45)
    assert total["computed"]["value_max"] == pytest.approx(0.55)
    # Below 0.5 without the open metabolite, above with it: no verdict either way.
    assert total["state"] == "not_assessable"
    assert "Einstufung offen ist, sind nicht eingerechnet" in total["note_de"]
    members = {m["parameter"]: m["counted"] for m in total["computed"]["members"]}
    assert members["metolachlor_esa"] == "uncertain" and "desphenylchloridazon" not in members
    assert values["metolachlor_esa"]["state"] == "relevance_unclear"
    assert values["metolachlor_esa"]["note_de"].startswith(
        "Ob dieser Abbaustoff für Trinkwasser als relevant gilt, ist nicht abschließend bewertet."
    )
    assert values["desphenylchloridazon"]["state"] == "no_limit"
    assert "kein gesetzlicher Grenzwert" in values["desphenylchloridazon"]["note_de"]


@pytest.mark.parametrize(
    ("nitrate", "nitrite", "state", "value", "value_max"),
    [
        ("45", "0,2", "below_limit", 0.9 + 0.2 / 3, 0.9 + 0.2 / 3),
        ("40", "0,7", "exceeds_limit", 0.8 + 0.7 / 3, 0.8 + 0.7 / 3),
        # `< x` counts as anything from 0 to x: a verdict only where both ends agree.
        ("48", "< 0,1", "below_limit", 0.96, 0.96 + 0.1 / 3),
        ("49", "< 0,1", "not_assessable", 0.98, 0.98 + 0.1 / 3),
        ("51", "< 0,1", "exceeds_limit", 1.02, 1.02 + 0.1 / 3),
    ],
)
def test_the_nitrate_rule(tiny_data, nitrate, nitrite, state, value, value_max):
    publish(tiny_data, ("nitrat", nitrate, "mg/l"), ("nitrit", nitrite, "mg/l"))
    check = zone(tiny_data)[1]["nitrat_nitrit"]
    assert check["state"] == state
    assert check["computed"]["value"] == pytest.approx(value)
    assert check["computed"]["value_max"] == pytest.approx(value_max)
    assert (check["limit"]["kind"], check["limit"]["value"]) == ("grenzwert", 1.0)
    assert check["provenance"]["document_id"] == "zs-2026"
    assert check["note_de"].startswith("Nitrat/50 + Nitrit/3 ")


def test_nitrate_alone_makes_no_check(tiny_data):
    publish(tiny_data, ("nitrat", "45", "mg/l"))
    values, checks, _ = zone(tiny_data)
    assert checks == {} and values["nitrat"]["state"] == "below_limit"


def test_a_newer_computed_sum_replaces_an_older_published_one(tiny_data):
    publish(tiny_data, ("pfas_summe_20", "0,02", "µg/l"), sampled_at="2026-01-10")
    publish(tiny_data, ("pfoa", "0,08", "µg/l"), ("pfos", "0,05", "µg/l"), sampled_at="2026-04-01")
    pfas = zone(tiny_data)[0]["pfas_summe_20"]
    assert (pfas["origin"], pfas["sampled_at"], pfas["state"]) == (
        "computed",
        dt.date(2026, 4, 1),
        "exceeds_limit",
    )


def test_members_of_another_sample_are_not_added(tiny_data):
    publish(tiny_data, ("pfoa", "0,06", "µg/l"), point="Brunnen Ost")
    publish(tiny_data, ("pfos", "0,06", "µg/l"), point="Brunnen West")
    pfas = zone(tiny_data)[0]["pfas_summe_20"]
    # Two samples, each 0.06: neither exceeds, and neither shows compliance.
    assert (pfas["normalized_value"], pfas["state"]) == (0.06, "not_assessable")


def test_every_member_is_in_the_register_in_the_unit_of_its_sum():
    import polars as pl

    from generator.load import reference_dir

    params = pl.read_csv(reference_dir() / "parameters.csv", infer_schema=False)
    units = dict(zip(params["code"], params["unit"], strict=True))
    for rule in sums.SUMS:
        assert rule.code in units
        for member in rule.members:
            assert units[member] == units[rule.code], (rule.code, member)
    for check in sums.CHECKS:
        assert {units[m] for m in check.members} == {"mg/l"}


@pytest.mark.parametrize(
    ("as_of", "history"), [(dt.date(2026, 11, 23), True), (dt.date(2025, 6, 30), False)]
)
def test_only_the_samples_current_values_need_are_summed(as_of, history):
    """`current_samples` keeps what the current values and checks rest on, nothing less."""
    data, readings = derive.read_values(load.load(load.sample_data_dir()))
    series = published.measurement_rows(data.measurements, data.parameters)
    member_table = sums.members(data.pesticides, data.parameters)
    every = sums.computed(derive.with_numbers(series, readings), member_table, as_of)
    samples = derive.with_numbers(sums.current_samples(series, member_table, as_of), readings)
    needed = sums.computed(samples, member_table, as_of)
    # Older history is left out (the sample's sums before 2026 are single samples)...
    assert (needed.height < every.height) is history
    # ...and nothing derived from it changes.
    assert derive.current_values(data, series, readings, as_of, needed).equals(
        derive.current_values(data, series, readings, as_of, every)
    )
    checks = [derive.summary.checks(c, data.limits, data.documents, as_of) for c in (needed, every)]
    assert checks[0].equals(checks[1])
