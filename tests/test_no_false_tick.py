"""No green tick without evidence: the constructed zones 31-37 of the golden input.

Each zone holds one case where a verdict used to claim more than the published values show:
several sample points on one date (31), the technical action value reached (32), sums
resting on "< BG" without a number (33), sums of maxima of different samples (34), a
published sum that open metabolites could lift over its limit (35), microbiology alone (36),
a supplier's hardness range against its own total hardness and units (37). The API is read
as JSON, the pages as parsed HTML trees; the bundled sample is checked for zone 203.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator import derive, load
from generator.api import verdicts
from generator.build import build
from generator.config import Config
from generator.site import urls
from tests.helpers import AS_OF, append
from tests.site_helpers import by_id, find, page, text_of, value_rows


@pytest.fixture(scope="module")
def golden(golden_site: Path) -> Path:
    return golden_site


def zone_doc(root: Path, zone_id: int) -> dict:
    return json.loads((root / f"_data/v1/zones/{zone_id}.json").read_text(encoding="utf-8"))


def current(root: Path, zone_id: int) -> dict[str, dict]:
    return {v["parameter"]: v for v in zone_doc(root, zone_id)["current_values"]}


def derived_zone(data: Path, zone_id: int) -> tuple[dict, dict[str, dict]]:
    d = derive.derive(load.load(data), AS_OF)
    summary = d.zones.filter(zone_id=zone_id)["summary"][0]
    values = {r["parameter"]: r for r in d.current_values.all().filter(zone_id=zone_id).to_dicts()}
    return summary, values


# ---------------------------------------------------------------------------- 1. sample points


def test_of_several_sample_points_on_one_date_the_worst_stands(golden):
    values = current(golden, 31)
    lead = values["blei"]
    # Wasserwerk Nord (3 µg/l) sorts first by name; the exceedance in the south still stands.
    assert (lead["sample_point"], lead["value_text"], lead["state"]) == (
        "Wasserwerk Süd",
        "12",
        "exceeds_limit",
    )
    assert [(p["sample_point"], p["value_text"], p["state"]) for p in lead["other_points"]] == [
        ("Wasserwerk Nord", "3", "below_limit")
    ]
    # Of two complying values the larger stands.
    assert values["nitrat"]["value_text"] == "22"
    assert values["kupfer"]["other_points"] == []
    s = zone_doc(golden, 31)["summary"]
    assert (s["status"], s["exceeds_limit"]) == ("exceeds_limit", ["blei"])


def test_the_zone_and_plz_pages_list_the_other_sample_points(golden):
    rows = value_rows(page(golden, urls.url("zone", zone_id=31)))
    lead = text_of(rows["Blei"])
    assert "Wasserwerk Süd" in lead
    assert "Weitere Messstellen: Wasserwerk Nord (15.06.2026): 3 µg/l, eingehalten" in lead
    answer = text_of(page(golden, urls.url("plz", plz="39104")))
    assert "Weitere Messstellen: Wasserwerk Nord (15.06.2026): 3 µg/l, eingehalten" in answer


def test_a_sample_point_that_complies_hides_no_exceedance_whatever_its_name(tiny_data):
    for point, value in (("A Netz", "0,5"), ("Z Ausgang", "0,002")):
        append(
            tiny_data,
            "measurements",
            zone_id="23",
            parameter="pfas_summe_20",
            sampled_at="2026-04-01",
            value_text=value,
            unit="µg/l",
            document_id="zs-2026",
            sample_point=point,
        )
    _, values = derived_zone(tiny_data, 23)
    pfas = values["pfas_summe_20"]
    assert (pfas["sample_point"], pfas["state"]) == ("A Netz", "exceeds_limit")
    assert [p["sample_point"] for p in pfas["other_points"]] == ["Z Ausgang"]


# ---------------------------------------------------------------------------- 2. reached


def test_legionella_at_the_action_value_has_reached_it(golden):
    legionella = current(golden, 32)["legionella"]
    assert (legionella["value_text"], legionella["state"]) == ("100", "reaches_action_value")
    assert legionella["limit"]["kind"] == "massnahmenwert"
    s = zone_doc(golden, 32)["summary"]
    assert (s["status"], s["exceeds_other"]) == ("exceeds_other", ["legionella"])
    assert "Legionella spec. (100 KBE/100 ml, technischer Maßnahmenwert erreicht)" in s["text_de"]
    row = value_rows(page(golden, urls.url("zone", zone_id=32)))["Legionella spec."]
    assert "eingehalten" not in text_of(row)
    assert "technischer Maßnahmenwert erreicht" in text_of(row)


def test_every_kind_names_its_comparison_in_the_reference_readme():
    readme = (Path(__file__).parents[1] / "generator/reference/README.md").read_text("utf-8")
    for name, kind in verdicts.KINDS.items():
        assert f"| `{name}` |" in readme, name
        assert kind.comparison in ("exceeded", "reached", "outside"), name
    assert "erreicht" in readme and "überschritten" in readme


# ---------------------------------------------------------------------------- 3. sums on nothing


def test_a_sum_whose_members_are_all_below_an_unknown_reporting_limit_is_not_assessable(golden):
    values = current(golden, 33)
    for code in ("pestizide_gesamt", "tetrachlorethen_trichlorethen"):
        v = values[code]
        assert (v["origin"], v["value_text"], v["state"]) == ("computed", "< BG", "not_assessable")
        assert v["normalized_value"] is None
        assert (
            "kein Einzelstoff über der Bestimmungsgrenze; Bestimmungsgrenze nicht angegeben"
            in (v["note_de"])
        )
    # Reporting limits given and below the limit: the sum is 0 and complies, as the rule says.
    assert (values["thm"]["value_text"], values["thm"]["state"]) == ("0", "below_limit")
    s = zone_doc(golden, 33)["summary"]
    assert {"pestizide_gesamt", "tetrachlorethen_trichlorethen"} <= set(s["not_assessable"])
    assert s["assessed"] == 1  # THM only


def test_a_sum_on_nothing_shows_no_share_and_no_tick(golden):
    rows = value_rows(page(golden, urls.url("zone", zone_id=33)))
    total = rows["Pestizide-gesamt"]
    assert "✓" not in text_of(total) and "%" not in text_of(total)
    assert "nicht bewertbar" in text_of(total)


def test_one_member_without_a_reporting_limit_blocks_compliance_of_a_computed_sum(tiny_data):
    for parameter, value in (("tetrachlorethen", "2"), ("trichlorethen", "< BG")):
        append(
            tiny_data,
            "measurements",
            zone_id="23",
            parameter=parameter,
            sampled_at="2026-04-01",
            value_text=value,
            unit="µg/l",
            document_id="zs-2026",
        )
    _, values = derived_zone(tiny_data, 23)
    total = values["tetrachlorethen_trichlorethen"]
    assert (total["value_text"], total["state"]) == ("2", "not_assessable")
    assert "Bestimmungsgrenze" in total["note_de"] and "nicht angegeben" in total["note_de"]


# ---------------------------------------------------------------------------- 4. sums of maxima


def test_a_sum_of_maxima_above_the_limit_is_not_assessable_below_it_complies(golden):
    values = current(golden, 34)
    tetra = values["tetrachlorethen_trichlorethen"]
    assert (tetra["statistic"], tetra["value_text"], tetra["state"]) == (
        "max",
        "11",
        "not_assessable",
    )
    assert "Summe der Höchstwerte verschiedener Proben" in tetra["note_de"]
    assert "derselben Probe" not in tetra["note_de"]
    thm = values["thm"]
    assert (thm["statistic"], thm["value_text"], thm["state"]) == ("max", "28", "below_limit")
    row = text_of(
        value_rows(page(golden, urls.url("zone", zone_id=34)))["Tetrachlorethen und Trichlorethen"]
    )
    assert "%" not in row and "Maximum der Proben" in row


def test_a_member_maximum_above_the_sums_limit_proves_an_exceedance(tiny_data):
    for parameter, value in (("tetrachlorethen", "12"), ("trichlorethen", "1")):
        append(
            tiny_data,
            "measurements",
            zone_id="23",
            parameter=parameter,
            sampled_at="2025-12-31",
            value_text=value,
            unit="µg/l",
            document_id="zs-2026",
            statistic="max",
        )
    _, values = derived_zone(tiny_data, 23)
    assert values["tetrachlorethen_trichlorethen"]["state"] == "exceeds_limit"


def test_the_plz_page_says_maximum_for_an_aggregate(tiny_data, tmp_path):
    append(tiny_data, "plz_zones", plz="39108", zone_id="23", area_share="1.0", confidence="1.0")
    append(
        tiny_data,
        "measurements",
        zone_id="23",
        parameter="nitrat",
        sampled_at="2025-12-31",
        value_text="31",
        unit="mg/l",
        document_id="zs-2026",
        statistic="max",
    )
    out = tmp_path / "build"
    build(tiny_data, out, AS_OF, Config(), force=True)
    answer = text_of(page(out, urls.url("plz", plz="39108")))
    assert "Maximum der Proben, Stand 31.12.2025" in answer
    assert "Probe vom 31.12.2025" not in answer


# ---------------------------------------------------------------------------- 5. headline


def test_microbiology_alone_gives_a_neutral_headline_naming_the_key_values(golden):
    s = zone_doc(golden, 36)["summary"]
    assert (s["status"], s["assessed"]) == ("key_values_missing", 2)
    assert s["title_de"] == "PFAS, Nitrat und Blei nicht veröffentlicht"
    assert s["key_unassessed"] == ["blei", "nitrat", "pfas_summe_20"]
    assert verdicts.SUMMARY_TONES["key_values_missing"] == "none"
    fazit = by_id(page(golden, urls.url("zone", zone_id=36)), "fazit")
    assert "✓" not in text_of(fazit)
    assert "PFAS, Nitrat und Blei nicht veröffentlicht" in text_of(fazit)


# ---------------------------------------------------------------------------- 6. sample point


def test_lead_names_its_sample_point_and_what_a_works_value_cannot_say(golden):
    answer = page(golden, urls.url("plz", plz="39104"))
    notes = [text_of(n) for n in find(answer, "small", **{"class": "pipe-note"})]
    assert len(notes) == 1
    assert notes[0].startswith("Probenahmestelle: Wasserwerk Süd.")
    assert "Leitungen im Haus" in notes[0] and "§ 42 Abs. 3" in notes[0]
    assert "Anlage 2 Teil II" in notes[0]
    rows = value_rows(page(golden, urls.url("zone", zone_id=31)))
    assert "Probenahmestelle: Wasserwerk Nord." in text_of(rows["Kupfer"])
    assert not find(rows["Nitrat"], "small", **{"class": "pipe-note"})


# ---------------------------------------------------------------------------- 7. published sums


def test_a_published_sum_open_metabolites_could_lift_over_its_limit_is_not_assessable(golden):
    total = current(golden, 35)["pestizide_gesamt"]
    assert (total["origin"], total["value_text"], total["state"]) == (
        "published",
        "0,42",
        "not_assessable",
    )
    assert total["computed"]["consistent"] is True
    assert total["computed"]["value_max"] == pytest.approx(0.52)
    assert "mit ihnen ergäbe sich bis zu 0,52 µg/l" in total["note_de"]


# ---------------------------------------------------------------------------- 8. units, words


def test_units_read_as_people_write_them_and_convert_per_parameter(golden):
    values = current(golden, 37)
    # KS 4,3 in °dH: 2.8 °dH per mmol/l, not the 5.6 of the alkaline earths.
    assert values["saeurekapazitaet_ks43"]["normalized_value"] == pytest.approx(3.0)
    rows = value_rows(page(golden, urls.url("zone", zone_id=37)))
    assert "512 µS/cm (25 °C)" in text_of(rows["Elektrische Leitfähigkeit"])
    assert "3 KBE/ml" in text_of(rows["Koloniezahl bei 22 °C"])


def test_a_hardness_range_against_the_suppliers_own_total_hardness_shows_both(golden):
    answer = text_of(page(golden, urls.url("plz", plz="39106")))
    assert "Härtebereich hart" in answer
    assert "laut Versorger hart; 14 °dH entspricht mittel" in answer


def test_the_pesticide_explanation_names_the_four_substances_of_0_03(golden):
    text = text_of(page(golden, urls.url("parameter", code="aldrin")))
    assert "Aldrin, Dieldrin, Heptachlor und Heptachlorepoxid" in text
    assert "0,03 µg/l" in text


# ---------------------------------------------------------------------------- the sample


def test_the_bundled_sample_shows_no_green_tick_without_evidence(sample_build):
    doc = zone_doc(sample_build, 203)
    total = {v["parameter"]: v for v in doc["current_values"]}["pestizide_gesamt"]
    assert (total["value_text"], total["state"]) == ("< BG", "not_assessable")
    assert "pestizide_gesamt" in doc["summary"]["not_assessable"]
    row = value_rows(page(sample_build, urls.url("zone", zone_id=203)))["Pestizide-gesamt"]
    assert "✓" not in text_of(row)
    # No zone of the sample is green without its key values.
    for path in (sample_build / "_data/v1/zones").glob("*.json"):
        s = json.loads(path.read_text("utf-8"))["summary"]
        if s["status"] == "complies":
            assert s["key_unassessed"] == [], path.name


# ---------------------------------------------------------------------------- 9. guidance values


def test_tfa_is_compared_with_the_trinkwasserleitwert_of_the_uba_with_its_source(golden):
    tfa = current(golden, 37)["trifluoracetat"]
    assert (tfa["state"], tfa["limit"]["kind"], tfa["limit"]["value"]) == (
        "below_limit",
        "leitwert",
        60.0,
    )
    assert "Umweltbundesamt" in tfa["limit"]["legal_basis"]
    assert "keine Schädigung der menschlichen Gesundheit zu erwarten" in tfa["note_de"]
    limits = json.loads(
        (golden / "_data/v1/parameters/trifluoracetat/limits.json").read_text("utf-8")
    )
    (row,) = limits["limits"]
    assert row["source_url"].startswith("https://") and row["kind"] == "leitwert"
    row_html = text_of(value_rows(page(golden, urls.url("zone", zone_id=37)))[tfa["name_de"]])
    assert "Trinkwasserleitwert (UBA) 60 µg/l" in row_html
    assert "Grenzwert" not in row_html.split("Trinkwasserleitwert")[0]


def test_a_non_relevant_metabolite_without_a_sourced_value_says_what_it_is(golden):
    v = current(golden, 13)["desphenylchloridazon"]
    assert (v["state"], v["limit"]) == ("no_limit", None)
    assert v["note_de"].startswith("Nicht relevanter Metabolit")
