"""Verdicts a reader can trust: zone summaries, the site's wording, pesticide pages, /lizenz/.

The golden input is built once (API and site); JSON is parsed, pages are parsed with the
strict HTML5 parser of tests/test_site.py and read as trees.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator import derive, load
from generator.api import verdicts
from generator.site import urls
from tests.helpers import AS_OF, GOLDEN_INPUT, append
from tests.site_helpers import by_id, find, page, text_of, value_rows


def section(tree, heading: str):
    """Return the <section> labelled by the heading with id `heading`."""
    return next(e for e in find(tree, "section") if e.get("aria-labelledby") == heading)


@pytest.fixture(scope="module")
def golden(golden_site) -> Path:
    return golden_site


def zone_doc(root: Path, zone_id: int) -> dict:
    return json.loads((root / f"_data/v1/zones/{zone_id}.json").read_text(encoding="utf-8"))


# ---------------------------------------------------------------------------- zone summaries


def test_zone_summaries_name_what_each_value_is_above(golden):
    s = zone_doc(golden, 13)["summary"]
    assert s["status"] == "exceeds_limit"
    assert s["exceeds_limit"] == ["aldrin", "atrazin", "blei", "pfas_summe_20", "thm"]
    assert s["exceeds_other"] == ["dimethylsulfamid", "eisen", "legionella", "radon_222"]
    assert s["not_assessable"] == ["metolachlor_esa"]
    assert s["title_de"] == "5 Werte über dem Grenzwert"
    limits_part, rest = s["text_de"].split(" Außerdem auffällig: ")
    # Only binding limits are called Grenzwert exceedances.
    for word in ("Legionella", "Radon", "Eisen", "Dimethylsulfamid"):
        assert word not in limits_part
    assert "Legionella spec. (150 KBE/100 ml, technischer Maßnahmenwert erreicht)" in rest
    assert "Radon-222 (120 Bq/l, über dem Parameterwert)" in rest
    assert "Eisen (0,35 mg/l, über dem Grenzwert für diesen Indikatorparameter)" in rest
    assert "über dem gesundheitlichen Orientierungswert des Umweltbundesamts" in rest
    assert "Nicht bewertbar: Metolachlor-Sulfonsäure" in rest
    assert "Summe PFAS-20 (0,12 µg/l, berechnet)" in limits_part


def test_a_sum_smaller_than_its_members_names_the_members_in_the_summary(golden):
    s = zone_doc(golden, 12)["summary"]
    assert s["status"] == "exceeds_limit" and s["exceeds_limit"] == ["pfas_summe_20"]
    assert "Summe PFAS-20 (0,05 µg/l; die Einzelstoffe ergeben 0,13 µg/l)" in s["text_de"]


def test_a_zone_with_nothing_assessable_is_neutral_and_says_why(golden):
    s = zone_doc(golden, 22)["summary"]
    assert (s["status"], s["assessed"]) == ("not_assessable", 0)
    assert s["title_de"] == "Keine bewertbaren Werte"
    assert (
        "Summe PFAS-20 (unter der Bestimmungsgrenze von 0,5 µg/l: Die angegebene Bestimmungsgrenze"
        in s["text_de"]
    )
    assert zone_doc(golden, 23)["summary"]["status"] == "no_data"


@pytest.mark.parametrize(
    ("published", "status", "title", "text"),
    [
        (
            [("nitrat", "20", "mg/l"), ("blei", "2", "µg/l"), ("pfas_summe_20", "0,02", "µg/l")],
            "complies",
            "Alle 3 bewerteten Werte eingehalten",
            "Keiner der bewerteten Werte liegt über",
        ),
        # Microbiology or nitrate alone is no green tick: the key values are named.
        (
            [("nitrat", "20", "mg/l")],
            "key_values_missing",
            "PFAS und Blei nicht veröffentlicht",
            "Das sagt nichts über PFAS und Blei: Dafür liegt keine Bewertung vor.",
        ),
        (
            [("e_coli", "0", "KBE/100 ml"), ("enterokokken", "0", "KBE/100 ml")],
            "key_values_missing",
            "PFAS, Nitrat und Blei nicht veröffentlicht",
            "Keiner der bewerteten Werte (2) liegt über",
        ),
        (
            [("legionella", "150", "KBE/100 ml")],
            "exceeds_other",
            "1 Wert auffällig",
            "Kein Wert liegt über einem Grenzwert der Anlagen 1 und 2 der Trinkwasserverordnung. "
            "Auffällig: Legionella spec. (150 KBE/100 ml, technischer Maßnahmenwert erreicht).",
        ),
        (
            [("radon_222", "120", "Bq/l"), ("nitrat", "20", "mg/l")],
            "exceeds_other",
            "1 Wert auffällig",
            "Auffällig: Radon-222 (120 Bq/l, über dem Parameterwert).",
        ),
        (
            [("pfas_summe_20", "< 0,5", "µg/l"), ("nitrat", "20", "mg/l"), ("blei", "1", "µg/l")],
            "key_values_missing",
            "PFAS nicht bewertbar",
            "Nicht bewertbar: Summe PFAS-20 (unter der Bestimmungsgrenze von 0,5 µg/l",
        ),
        (
            [("pfas_summe_20", "< 0,5", "µg/l"), ("nitrat", "20", "mg/l")],
            "key_values_missing",
            "Blei nicht veröffentlicht; PFAS nicht bewertbar",
            "Das sagt nichts über PFAS und Blei",
        ),
        (
            [("metolachlor_esa", "0,3", "µg/l")],
            "not_assessable",
            "Keine bewertbaren Werte",
            "nicht abschließend bewertet",
        ),
        (
            [("temperatur", "12", "°C")],
            "not_assessable",
            "Keine bewertbaren Werte",
            "vergleichen: Wassertemperatur (12 °C: kein Grenzwert).",
        ),
    ],
)
def test_summary_statuses(tiny_data, published, status, title, text):
    for parameter, value, unit in published:
        append(
            tiny_data,
            "measurements",
            zone_id="23",
            parameter=parameter,
            sampled_at="2026-04-01",
            value_text=value,
            unit=unit,
            document_id="zs-2026",
        )
    d = derive.derive(load.load(tiny_data), AS_OF)
    s = d.zones.filter(zone_id=23)["summary"][0]
    assert (s["status"], s["title_de"]) == (status, title)
    assert text in s["text_de"]
    if s["status"] == "complies":  # green only with a value assessed and none above
        assert s["assessed"] > 0 and not s["exceeds_limit"] and not s["exceeds_other"]
        assert s["key_unassessed"] == []
    if s["status"] == "key_values_missing":
        assert s["key_unassessed"] and verdicts.SUMMARY_TONES[s["status"]] == "none"


def test_every_state_belongs_to_a_category_and_has_words():
    categories = {v.category for v in verdicts.STATES.values()}
    assert categories == {
        verdicts.EXCEEDS_LIMIT,
        verdicts.EXCEEDS_OTHER,
        verdicts.COMPLIES,
        verdicts.NOT_ASSESSABLE,
        verdicts.NO_COMPARISON,
        verdicts.NOT_MEASURED,
    }
    # Only the binding limit's state speaks of a Grenzwert exceeded.
    for state, v in verdicts.STATES.items():
        assert ("Grenzwert überschritten" in v.label_de) == (state == "exceeds_limit")
    for kind in verdicts.KINDS.values():
        assert kind.exceeded is None or kind.exceeded in verdicts.STATES


# ---------------------------------------------------------------------------- the site


def test_zone_page_headline_and_rows_say_what_values_are(golden):
    tree = page(golden, urls.url("zone", zone_id=13))
    summary = by_id(tree, "fazit")
    assert text_of(summary) == "✕ 5 Werte über dem Grenzwert"
    rows = value_rows(tree)
    legionella = rows["Legionella spec."]
    assert legionella.get("class") == "row-warn"
    assert (
        text_of(find(legionella, "span", **{"class": "badge warn"})[0])
        == "△ technischer Maßnahmenwert erreicht"
    )
    assert "technischer Maßnahmenwert 100 KBE/100 ml" in text_of(legionella)
    assert "Grenzwert überschritten" not in text_of(legionella)
    assert "Parameterwert 100 Bq/l" in text_of(rows["Radon-222"])
    pfas = rows["Summe PFAS-20"]
    assert "berechnet" in [text_of(t) for t in find(pfas, "span", **{"class": "tag"})]
    assert "Berechnet aus den Einzelstoffen derselben Probe" in text_of(pfas)
    unclear = rows["Metolachlor-Sulfonsäure (Metolachlor-ESA)"]
    assert "Einstufung offen" in text_of(unclear) and "nicht abschließend bewertet" in text_of(
        unclear
    )
    checks = section(tree, "regeln")
    assert "Nitrat/50 + Nitrit/3 ≈ 0,967" in text_of(checks)


@pytest.mark.parametrize(
    ("zone_id", "css", "headline"),
    [
        (11, "summary-bad", "✕ 1 Wert über dem Grenzwert"),
        (22, "summary-none", "? Keine bewertbaren Werte"),
        (23, "summary-none", "– Noch keine Werte veröffentlicht"),
    ],
)
def test_zone_page_verdicts(golden, zone_id, css, headline):
    tree = page(golden, urls.url("zone", zone_id=zone_id))
    verdict = section(tree, "fazit")
    assert css in verdict.get("class").split()
    assert text_of(by_id(tree, "fazit")) == headline


def test_the_green_verdict_only_where_the_api_says_complies(golden):
    for doc_path in sorted((golden / "_data/v1/zones").glob("*.json")):
        doc = json.loads(doc_path.read_text(encoding="utf-8"))
        tree = page(golden, urls.url("zone", zone_id=doc["zone_id"]))
        verdict = section(tree, "fazit")
        green = "summary-ok" in verdict.get("class").split()
        assert green == (doc["summary"]["status"] == "complies"), doc["zone_id"]
        assert text_of(by_id(tree, "fazit")).endswith(doc["summary"]["title_de"])


def _limits_section(golden: Path, code: str):
    tree = page(golden, urls.url("parameter", code=code))
    return text_of(section(tree, "grenzwerte"))


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("atrazin", ["Grenzwert 0,1 µg/l", "TrinkwV 2023, Anlage 2 Teil I, Pestizide"]),
        ("desethylatrazin", ["Relevanter Metabolit", "Grenzwert 0,1 µg/l"]),
        ("aldrin", ["Grenzwert 0,03 µg/l", "Aldrin, Dieldrin, Heptachlor, Heptachlorepoxid"]),
        ("desphenylchloridazon", ["kein gesetzlicher Grenzwert", "Einstufung und Quelle"]),
        (
            "dimethylsulfamid",
            [
                "kein gesetzlicher Grenzwert",
                "gesundheitlicher Orientierungswert (UBA) 1 µg/l",
                "Umweltbundesamt",
            ],
        ),
        ("metolachlor_esa", ["nicht abschließend bewertet", "weder als eingehalten noch"]),
        ("pfoa", ["Zählt zur Summe: Summe PFAS-20, Summe PFAS-4"]),
        ("legionella", ["technischer Maßnahmenwert 100 KBE/100 ml"]),
        ("radon_222", ["Parameterwert 100 Bq/l"]),
    ],
)
def test_parameter_pages_state_the_right_value(golden, code, words):
    text = _limits_section(golden, code)
    for w in words:
        assert w in text, (code, w)


def test_no_pesticide_page_claims_the_ordinance_sets_no_limit(golden):
    decisions = load.load(GOLDEN_INPUT).pesticides
    assert decisions.height == 87
    for code in decisions["code"]:
        text = _limits_section(golden, code)
        assert "legt die Trinkwasserverordnung keinen Grenzwert fest" not in text, code
    # Parameters outside the pesticides still say so where true.
    assert "keinen Grenzwert fest" in _limits_section(golden, "temperatur")


def test_parameter_notes_are_german(golden):
    text = _limits_section(golden, "blei")
    assert "Anmerkung: = 10 µg/l." in text and "englisch" not in text


def test_license_page_names_annexes_duties_and_no_official_data(golden):
    data = load.load(GOLDEN_INPUT)
    body = text_of(find(page(golden, urls.url("license")), "main")[0])
    for annex in data.parameters["annex"].drop_nulls().unique():
        assert annex in body, annex
    for section in ("ODbL 4.4", "ODbL 4.6", "ODbL 4.7"):
        assert section in body
    assert "keine amtlichen Angaben" in body
    assert "N,N-Dimethylsulfamid (DMS)" in body  # the guidance value, with its source


def test_no_page_mentions_terms_of_use(golden):
    for path in golden.rglob("*.html"):
        text = path.read_text(encoding="utf-8").lower()
        for words in ("nutzungsbedingungen", "terms of use", "terms of service"):
            assert words not in text, (path, words)


def test_api_page_and_openapi_say_the_values_are_not_official(golden):
    body = text_of(find(page(golden, urls.url("api")), "main")[0])
    assert "Veröffentlichungen der Wasserversorger" in body and "keine amtlichen" in body
    spec = json.loads((golden / "v1/openapi.json").read_text(encoding="utf-8"))
    description = spec["info"]["description"]
    assert "suppliers' own publications" in description and "not official" in description


def test_the_bundled_sample_shows_a_computed_sum_and_pesticides(sample_build):
    def values(zone_id: int) -> dict:
        doc = zone_doc(sample_build, zone_id)
        return {v["parameter"]: v for v in doc["current_values"]}

    pfas = values(404)["pfas_summe_20"]
    assert pfas["origin"] == "computed" and len(pfas["computed"]["members"]) == 20
    hochzone = values(103)
    assert hochzone["desethylatrazin"]["state"] == "exceeds_limit"
    assert hochzone["metolachlor_esa"]["state"] == "relevance_unclear"
    assert values(105)["desphenylchloridazon"]["state"] == "no_limit"
