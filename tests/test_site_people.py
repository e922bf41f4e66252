"""The site for people.

The answer on the PLZ page, comparable values, explanations, search by place, the A-Z index
of places and the national map. Pages are parsed as trees (html5lib);
expected figures come from the JSON documents and the packaged tables, never from the pages.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import polars as pl
import pytest

from generator.api import routes
from generator.load import reference_dir
from generator.output.encode import file_digest
from generator.site import answer, maps, urls
from tests.site_helpers import NS, SVG, by_id, find, html_files, page, parse, text_of

GERMAN_NUMBER = r"-?\d+(?:,\d+)?"
SHARE = re.compile(
    r"^(?:unter |bis |über )?(?:\d{1,3}(?:\.\d{3})*|unter 1) % des "
    r"(?:Grenzwerts(?: für Indikatorparameter)?|technischen Maßnahmenwerts|Parameterwerts|"
    r"Referenzwerts|gesundheitlichen Orientierungswerts \(UBA\))"
    r"(?: ab \d\d\.\d\d\.\d{4})?(?: \(Summe der Einzelstoffe\))?$"
)
# Texts people asked about (issue 12): every one has a plain explanation.
ASKED_ABOUT = (
    "pfas_summe_20", "pfas_summe_4", "pfoa", "nitrat", "blei", "kupfer", "uran", "arsen",
    "chrom", "gesamthaerte", "calcium", "magnesium", "natrium", "chlorid", "sulfat", "eisen",
    "mangan", "ph_wert", "elektrische_leitfaehigkeit", "e_coli", "coliforme_bakterien",
    "enterokokken", "legionella", "pestizide", "atrazin", "thm", "chlorat", "radon_222",
)  # fmt: skip


def zone_doc(root: Path, zone_id: int) -> dict:
    path = root / routes.file_path("zone", zone_id=zone_id)
    return json.loads(path.read_text(encoding="utf-8"))


def current(root: Path, zone_id: int, parameter: str) -> dict:
    return next(v for v in zone_doc(root, zone_id)["current_values"] if v["parameter"] == parameter)


def classed(tree, cls: str):
    return [e for e in tree.iter() if cls in (e.get("class") or "").split()]


def exists(root: Path, href: str) -> bool:
    """Whether a site link resolves to a built file (its fragment to an element there)."""
    parts = urlsplit(href)
    path = root / urls.file_path_for_url(parts.path)
    if not path.is_file():
        return False
    return not parts.fragment or by_id(parse(path), parts.fragment) is not None


# ---------------------------------------------------------------------------- PLZ page


def test_plz_page_answers_with_the_verdict_and_key_values_of_each_zone(golden_site):
    tree = page(golden_site, urls.url("plz", plz="76437"))
    assert text_of(classed(tree, "place-names")[0]) == "Rastatt"
    cards = classed(tree, "zone-card")
    lookup = json.loads((golden_site / routes.file_path("lookup", plz="76437")).read_text("utf-8"))
    # One answer per zone, in the order of the lookup.
    assert [text_of(find(c, "h2")[0]) for c in cards] == [z["zone_name"] for z in lookup["zones"]]
    for card, zone in zip(cards, lookup["zones"], strict=True):
        summary = zone_doc(golden_site, zone["zone_id"])["summary"]
        verdict = text_of(classed(card, "verdict")[0])
        assert summary["title_de"] in verdict and summary["text_de"] in verdict
        names = [text_of(dt).split(" Was ist das?")[0] for dt in find(card, "dt")][:5]
        assert names == ["Summe PFAS-20", "Summe PFAS-4", "Nitrat", "Blei", "Wasserhärte"]
        links = {a.get("href") for a in find(card, "a")}
        assert urls.url("zone", zone_id=zone["zone_id"]) in links  # all values
        for href in links:
            assert exists(golden_site, href), href  # explanations and zone pages
    # Zone 11: PFAS-20 0,14 µg/l against 0,1 µg/l.
    # (the cards follow the lookup's ranking, by population share where known)
    ids = [z["zone_id"] for z in lookup["zones"]]
    values = find(cards[ids.index(11)], "dd")
    pfas = current(golden_site, 11, "pfas_summe_20")
    share = round(pfas["normalized_value"] / pfas["limit"]["value"] * 100)
    first = text_of(values[0])
    assert first.startswith("0,14 µg/l ✕ Grenzwert überschritten")
    assert f"{share} % des Grenzwerts" in first and share == 140
    # PFAS-4 has no limit yet: the announced one, and what the value would be.
    assert "Ab 12.01.2028: Grenzwert 0,02 µg/l – das wären 60 % des Grenzwerts" in text_of(
        values[1]
    )


def test_a_sum_assessed_by_its_members_shows_their_share(golden_site):
    # Zone 12 publishes PFAS-20 0,05 µg/l, but PFOA and PFOS add up to 0,13 µg/l: the verdict
    # rests on 0,13 (generator/ordinance/sums.py), and so does the share beside the red badge.
    doc = current(golden_site, 12, "pfas_summe_20")
    assert doc["state"] == "exceeds_limit" and doc["computed"]["consistent"] is False
    tree = page(golden_site, urls.url("zone", zone_id=12))
    row = next(tr for tr in find(tree, "tr") if text_of(tr).startswith("Summe PFAS-20"))
    share = text_of(classed(row, "share-of")[0])
    assert share == "130 % des Grenzwerts (Summe der Einzelstoffe)"
    assert SHARE.match(share)


# ---------------------------------------------------------------------------- values


def test_values_are_german_in_the_limits_unit_with_the_published_text_beside(golden_site):
    shares = 0
    for zone_id in (11, 12, 13, 21, 22, 23):
        tree = page(golden_site, urls.url("zone", zone_id=zone_id))
        table = [t for t in find(tree, "table") if t.get("class") == "values"][0]
        for row in find(table, "tbody")[0].findall(NS + "tr"):
            cell = row.findall(NS + "td")[0]
            for shown in find(cell, "b"):
                value = text_of(shown)
                # German numbers, no sign or abbreviation of a supplier, no unit after a word.
                assert not re.search(r"\d\.\d|<|>|\bBG\b|n\.\s?n\.", value), value
                assert not re.search(
                    r"(nachweisbar|Bestimmungsgrenze|bestimmt|Befund)\s+\S*/", value
                ), value
            for share in classed(cell, "share-of"):
                assert SHARE.match(text_of(share)), text_of(share)
                shares += 1
    assert shares >= 10
    # Zone 21 prints PFAS-20 as `< BG` in ng/l: spelled out, the print kept beside it.
    tree = page(golden_site, urls.url("zone", zone_id=21))
    row = next(tr for tr in find(tree, "tr") if text_of(tr).startswith("Summe PFAS-20"))
    cell = row.findall(NS + "td")[0]
    assert text_of(find(cell, "b")[0]) == "unter der Bestimmungsgrenze"
    assert text_of(classed(cell, "published")[0]) == "veröffentlicht: < BG"
    # Chromium `0,001 - 0,004 mg/l` against a limit in µg/l: the range's top, as a share.
    chrom = current(golden_site, 21, "chrom")
    row = next(tr for tr in find(tree, "tr") if text_of(tr).startswith("Chrom"))
    cell = row.findall(NS + "td")[0]
    top = chrom["normalized_value"]
    assert (
        text_of(find(cell, "b")[0]) == f"bis {str(top).replace('.', ',').removesuffix(',0')} µg/l"
    )
    share = round(top / chrom["limit"]["value"] * 100)
    assert text_of(classed(cell, "share-of")[0]) == f"bis {share} % des Grenzwerts"
    assert text_of(classed(cell, "published")[0]) == "veröffentlicht: 0,001 - 0,004 mg/l"


def test_chart_tables_read_like_the_current_values(golden_site):
    tree = page(golden_site, urls.url("zone", zone_id=21))
    figure = by_id(tree, "verlauf-pfas_summe_20")
    rows = [
        [text_of(td) for td in tr.findall(NS + "td")] for tr in find(find(figure, "tbody")[0], "tr")
    ]
    assert rows == [
        ["01.02.2026", "0,04 µg/l", "40 ng/l"],
        ["01.04.2026", "unter der Bestimmungsgrenze", "< BG"],
    ]


# ---------------------------------------------------------------------------- explanations


def packaged(name: str) -> list[dict[str, str]]:
    with (reference_dir() / f"{name}.csv").open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_explanations_cover_what_people_ask_about_with_sources(golden_site):
    topics = {r["topic"]: r for r in packaged("explanations")}
    topic_of = {r["code"]: r["topic"] for r in packaged("explained_parameters")}
    for code in ASKED_ABOUT:
        tree = page(golden_site, urls.url("parameter", code=code))
        box = classed(tree, "explain")[0]
        assert by_id(box, "erklaerung") is not None
        expected = topics[topic_of[code]]
        answers = {
            text_of(div.find(NS + "dt")).rstrip("*"): text_of(div.find(NS + "dd"))
            for div in find(box, "dl")[0].findall(NS + "div")
        }
        assert answers == {question: expected[field] for field, question in answer.QUESTIONS}
        sources = find(classed(box, "sources")[0], "a")
        listed = [tuple(s.split(" | ")) for s in expected["sources"].split(" ;; ")]
        assert [(text_of(a), a.get("href")) for a in sources] == listed
    # General knowledge is marked as such.
    ph = page(golden_site, urls.url("parameter", code="ph_wert"))
    assert "Allgemeines Wissen" in text_of(by_id(ph, "allgemein"))
    assert "Allgemeines Wissen" not in text_of(
        find(page(golden_site, "/parameter/blei/"), "main")[0]
    )


def test_hardness_pages_give_the_ranges_of_the_law_with_dosing_advice(golden_site):
    tree = page(golden_site, urls.url("parameter", code="gesamthaerte"))
    rows = [
        [text_of(c) for c in tr if c.tag in (NS + "th", NS + "td")]
        for tr in find(find(by_id(tree, "haertebereiche"), "tbody")[0], "tr")
    ]
    assert [r[:3] for r in rows] == [
        ["weich", "weniger als 1,5 Millimol", "weniger als 8,4 °dH"],
        ["mittel", "1,5 bis 2,5 Millimol", "8,4 bis 14 °dH"],
        ["hart", "mehr als 2,5 Millimol", "mehr als 14 °dH"],
    ]
    assert all("Dosieren Sie Waschmittel" in r[3] for r in rows)


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        # On a shared bound the narrower range wins: 1,5 and 2,5 mmol/l are "mittel".
        ([("summe_erdalkalien", 1.5, "1,5")], "mittel"),
        ([("summe_erdalkalien", 1.49, "1,49")], "weich"),
        ([("summe_erdalkalien", 2.5, "2,5")], "mittel"),
        ([("summe_erdalkalien", 2.51, "2,51")], "hart"),
        # °dH: 14 °dH is 2,5 mmol/l (1 mmol/l = 5,6 °dH).
        ([("gesamthaerte", 14.0, "14")], "mittel"),
        ([("gesamthaerte", 14.1, "14,1")], "hart"),
        # What the supplier states wins over what the hardness gives.
        ([("gesamthaerte", 20.0, "20"), ("haertebereich", None, "Härtebereich mittel")], "mittel"),
        ([("haertebereich", None, "2")], None),  # the old numbered ranges are not the law's
    ],
)
def test_hardness_range_of_a_zone(rows, expected):
    units = {"summe_erdalkalien": "mmol/l", "gesamthaerte": "°dH", "haertebereich": ""}
    values = pl.DataFrame(
        [
            {
                "zone_id": 1,
                "parameter": code,
                "name_de": code,
                "normalized_value": value,
                "normalized_reporting_limit": None,
                "qualifier": "number" if value is not None else "text",
                "value_text": text,
                "unit": units[code],
                "normalized_unit": units[code],
            }
            for code, value, text in rows
        ]
    )
    ranges = pl.read_csv(reference_dir() / "hardness_ranges.csv")
    found = answer.zone_hardness(values, ranges)
    assert (found["hardness_range"].to_list() or [None]) == [expected]


def test_of_two_ranges_as_wide_on_a_shared_bound_the_lower_wins_for_every_zone():
    """An operator's own ranges may tie: the answer must not depend on a join's row order."""
    zones = 300
    values = pl.DataFrame(
        {
            "zone_id": range(zones),
            "parameter": "summe_erdalkalien",
            "name_de": "Summe Erdalkalien",
            "normalized_value": 1.5,
            "normalized_reporting_limit": None,
            "qualifier": "number",
            "value_text": "1,5",
            "unit": "mmol/l",
            "normalized_unit": "mmol/l",
        },
        schema_overrides={"normalized_reporting_limit": pl.Float64},
    )
    ranges = pl.DataFrame(
        {"range": ["weich", "mittel", "hart"], "min_mmol_l": [0.0, 1.5, 3.0]},
    ).with_columns(max_mmol_l=pl.Series([1.5, 3.0, None], dtype=pl.Float64))
    found = answer.zone_hardness(values, ranges)
    assert found["hardness_range"].to_list() == ["weich"] * zones


# ---------------------------------------------------------------------------- search


def test_search_index_finds_every_plz_place_zone_and_supplier(golden_site):
    home = page(golden_site, urls.url("home"))
    form = find(home, "form", role="search")[0]
    index_url = form.get("data-index")
    path, _, version = index_url.partition("?v=")
    raw = (golden_site / urls.file_path_for_url(path)).read_bytes()
    assert version == file_digest(raw)[:10]  # a changed index gets a new URL
    index = json.loads(raw)
    lookups = sorted(
        p.name.removesuffix(".json") for p in (golden_site / "_data/v1/lookup").iterdir()
    )
    assert index["plz"] == lookups
    assert [o[0] for o in index["orte"]] == [
        "Altötting",
        "Dresden",
        "Leipzig",
        "Magdeburg",
        "Rastatt",
    ]
    assert [index["plz"][i] for i in index["orte"][2][1]] == ["04109"]
    assert [z[0] for z in index["gebiete"]] == [11, 12, 13, 21, 22, 23, *range(31, 38)]
    assert [s[1] for s in index["versorger"]][
        index["gebiete"][3][2]
    ] == "Zweckverband Seeland (Testdaten)"
    for name, target in (("plz", "84503"), ("gebiet", 23), ("versorger", 2)):
        assert exists(golden_site, index["urls"][name].replace("{}", str(target)))
    for place in index["orte"]:
        assert exists(golden_site, place[2]), place


def test_place_index_lists_every_place_with_links_to_its_plz(golden_site):
    overview = page(golden_site, urls.url("places"))
    letters = find(overview, "nav", **{"aria-label": "Anfangsbuchstaben"})[0]
    assert [text_of(a).split(" (")[0] for a in find(letters, "a")] == ["A", "D", "L", "M", "R"]
    tree = page(golden_site, urls.url("places_letter", letter="l"))
    entry = by_id(tree, "ort-leipzig")
    assert text_of(entry.find(NS + "dt")) == "Leipzig"
    assert [a.get("href") for a in find(entry, "a")] == [urls.url("plz", plz="04109")]
    for path in (golden_site / "orte").rglob("index.html"):
        for a in find(parse(path), "a"):
            href = a.get("href")
            if href.startswith("/") and not href.startswith("/static/"):
                assert exists(golden_site, href), (path, href)


# ---------------------------------------------------------------------------- map


@pytest.fixture(scope="module")
def golden_points_site(tmp_path_factory) -> Path:
    """Build the golden input without its PLZ shapes: the map falls back to points."""
    import shutil

    from generator.build import build
    from generator.config import Config
    from tests.helpers import AS_OF, GOLDEN_INPUT

    data = tmp_path_factory.mktemp("points") / "data"
    shutil.copytree(GOLDEN_INPUT, data, ignore=shutil.ignore_patterns("plz_shapes.csv"))
    out = data.with_name("build")
    build(data, out, AS_OF, Config(), force=True)
    return out


def test_map_draws_every_plz_coloured_by_its_zone_in_three_views(golden_points_site):
    golden_site = golden_points_site  # the points of the map without shapes
    pages = {
        "pfas": urls.url("map"),
        "nitrat": urls.url("map_layer", layer="nitrat"),
        "haerte": urls.url("map_layer", layer="haerte"),
    }
    drawings = set()
    for key, url in pages.items():
        tree = page(golden_site, url)
        box = by_id(tree, "karte")
        assert box.get("data-layer") == key
        svg = next(tree.iter(SVG + "svg"))
        assert svg.get("aria-hidden") == "true"  # the tables below say it in text
        drawings.add(re.sub(r"\s+", " ", text_of(svg)) + str(sorted(svg.keys())))
        # Without JavaScript each view is its own page; its links lead to the others.
        nav = find(tree, "nav", **{"aria-label": "Was die Karte zeigt"})[0]
        assert {a.get("href") for a in find(nav, "a")} == set(pages.values())
        current = [a for a in find(nav, "a") if a.get("aria-current") == "page"]
        assert [a.get("href") for a in current] == [url]
        # Only the view of the page is shown.
        visible = [
            s.get("data-for")
            for s in find(tree, "section")
            if s.get("data-for") is not None and s.get("hidden") is None
        ]
        assert visible == [key if key != "pfas" else "pfas"]
    assert len(drawings) == 1  # one drawing for all three views
    tree = page(golden_site, urls.url("map"))
    links = {a.get("href"): a for a in next(tree.iter(SVG + "svg")).iter(SVG + "a")}
    # Each PLZ is a square in the link of the zone its page names first.
    first = {}
    for path in (golden_site / "_data/v1/lookup").iterdir():
        doc = json.loads(path.read_text("utf-8"))
        first.setdefault(doc["zones"][0]["zone_id"], []).append(doc["plz"])
    assert set(links) == {urls.url("zone", zone_id=z) for z in first}
    for zone_id, plz in first.items():
        link = links[urls.url("zone", zone_id=zone_id)]
        squares = re.findall(r"M(\d+) (\d+)h4v4h-4z", link.find(SVG + "path").get("d"))
        assert len(squares) == len(plz)
        assert all(0 <= int(x) <= maps.WIDTH and 0 <= int(y) <= maps.HEIGHT for x, y in squares)
        assert link.get("tabindex") == "-1"
    # Colours follow the zones' verdicts: 11 exceeds the PFAS-20 limit, 21 the nitrate one.
    assert "pb" in links[urls.url("zone", zone_id=11)].get("class").split()
    assert "nb" in links[urls.url("zone", zone_id=21)].get("class").split()
    # The text alternative: counts per colour add up to every zone, and the zones above a
    # limit are listed by name.
    for key, url in pages.items():
        tree = page(golden_site, url)
        section = [s for s in find(tree, "section") if s.get("data-for") == key][0]
        counts = [
            int(text_of(tr.findall(NS + "td")[0]).replace(".", ""))
            for tr in find(find(section, "tbody")[0], "tr")
        ]
        assert sum(counts) == 13  # the six zones of the first cases and the seven of 31-37
    pfas = [
        s for s in find(page(golden_site, pages["pfas"]), "section") if s.get("data-for") == "pfas"
    ][0]
    assert urls.url("zone", zone_id=11) in {a.get("href") for a in find(pfas, "a")}
    nitrat = [
        s
        for s in find(page(golden_site, pages["nitrat"]), "section")
        if s.get("data-for") == "nitrat"
    ][0]
    assert {a.get("href") for a in find(nitrat, "a")} == {urls.url("zone", zone_id=21)}


def test_new_pages_are_in_the_navigation_and_valid(golden_site):
    files = html_files(golden_site)
    for path in (
        urls.file_path("map"),
        urls.file_path("places"),
        urls.file_path("places_letter", letter="l"),
    ):
        assert golden_site / path in files
    nav = find(page(golden_site, urls.url("home")), "nav", **{"aria-label": "Hauptnavigation"})[0]
    assert urls.url("map") in {a.get("href") for a in find(nav, "a")}
