"""End to end: map data -> `trinkwasser mapping` -> `validate` -> `build` -> lookup and PLZ page.

The demo's map data (PLZ and zone areas, a population grid, an OpenStreetMap extract) is
mapped, the outputs are put into a data directory beside the demo's other tables, checked
and built; the lookup, the PLZ page, the export and its data package must show exactly
what the mapping computed: population shares, the ranking by them, the streets of each
zone and the provenance of every input.
"""

from __future__ import annotations

import csv
import hashlib
import json
import shutil
from collections import defaultdict
from pathlib import Path

import html5lib
import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.site import urls
from tests.mapping_helpers import mapping, rows

NS = "{http://www.w3.org/1999/xhtml}"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Map, validate and build the demo: (geo dir, data dir, build dir)."""
    root = tmp_path_factory.mktemp("e2e")
    result = CliRunner().invoke(cli, ["demo-data", "--out", str(root / "demo"), "--geometries"])
    assert result.exit_code == 0, result.output
    geo, data = root / "demo" / "geo", root / "data"
    shutil.copytree(root / "demo", data, ignore=shutil.ignore_patterns("geo", "plz_zones.csv"))
    result = mapping(
        geo / "plz_areas.geojson", geo / "zone_areas.gpkg", "--zone-admin", geo / "zone_admin.csv",
        "--admin-areas", geo / "admin_areas.gpkg", "--population", geo / "zensus_100m.csv",
        "--streets", geo / "streets.osm.pbf", "--streets-out", data / "streets.csv",
        "--out", data / "plz_zones.csv",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    # The report beside the tables is no table of the contract; the loader leaves it alone.
    assert (data / "mapping-report.csv").is_file()
    check = CliRunner().invoke(cli, ["validate", str(data)])
    assert check.exit_code == 0, check.output
    out = root / "build"
    build = CliRunner().invoke(cli, ["build", "--data", str(data), "--out", str(out), "-q"])
    assert build.exit_code == 0, build.output
    return geo, data, out


def table(data: Path) -> dict[str, list[dict[str, str]]]:
    by_plz = defaultdict(list)
    for r in rows(data / "plz_zones.csv"):
        by_plz[r["plz"]].append(r)
    return by_plz


def streets_of(data: Path) -> dict[tuple[str, int], list[str]]:
    out = defaultdict(list)
    for r in rows(data / "streets.csv"):
        out[(r["plz"], int(r["zone_id"]))].append(r["street"])
    return {k: sorted(v) for k, v in out.items()}


def lookup(out: Path, plz: str) -> dict:
    return json.loads((out / "_data" / "v1" / "lookup" / f"{plz}.json").read_text("utf-8"))


def shared_plz_with_a_flip(data: Path) -> str:
    """Return a PLZ with several zones whose order by people differs from its order by area."""
    for plz, zone_rows in sorted(table(data).items()):
        by_area = [r["zone_id"] for r in zone_rows]  # the table is sorted by area share
        by_people = [
            r["zone_id"] for r in sorted(zone_rows, key=lambda r: -float(r["population_share"]))
        ]
        if len(zone_rows) > 1 and by_area[0] != by_people[0]:
            return plz
    pytest.fail("the demo has no PLZ whose people live mostly outside its largest zone")


def test_the_lookup_shows_the_population_shares_and_ranks_by_them(built):
    _, data, out = built
    for plz, zone_rows in table(data).items():
        doc = lookup(out, plz)
        assert doc["ranked_by"] == "population_share"
        expected = {int(r["zone_id"]): float(r["population_share"]) for r in zone_rows}
        got = [(z["zone_id"], z["population_share"]) for z in doc["zones"]]
        assert dict(got) == expected, plz
        shares = [share for _, share in got]
        assert shares == sorted(shares, reverse=True), plz
        assert {z["boundary_source"] for z in doc["zones"]} <= {"supplier", "municipalities"}


def test_a_plz_whose_people_live_outside_its_largest_zone_leads_with_their_zone(built):
    _, data, out = built
    plz = shared_plz_with_a_flip(data)
    doc = lookup(out, plz)
    first = doc["zones"][0]
    assert first["population_share"] == max(z["population_share"] for z in doc["zones"])
    assert first["area_share"] < max(z["area_share"] for z in doc["zones"])


def test_the_lookup_of_a_shared_plz_carries_each_zones_streets(built):
    _, data, out = built
    streets = streets_of(data)
    shared = {plz for plz, zone_rows in table(data).items() if len(zone_rows) > 1}
    assert {plz for plz, _ in streets} <= shared and streets
    for plz in shared:
        for zone in lookup(out, plz)["zones"]:
            assert zone["streets"] == streets.get((plz, zone["zone_id"]), []), plz
    single = next(plz for plz, zone_rows in table(data).items() if len(zone_rows) == 1)
    assert lookup(out, single)["zones"][0]["streets"] == []


def test_the_plz_page_shows_population_shares_and_the_streets_of_each_zone(built):
    _, data, out = built
    plz = max(
        {p for p, _ in streets_of(data)},
        key=lambda p: sum(len(v) for (q, _), v in streets_of(data).items() if q == p),
    )
    doc = lookup(out, plz)
    path = out / urls.file_path_for_url(urls.url("plz", plz=plz))
    tree = html5lib.HTMLParser(strict=True).parse(path.read_bytes(), transport_encoding="utf-8")
    cards = [li for li in tree.iter(f"{NS}li") if li.get("class") == "zone-card"]
    names = ["".join(next(c.iter(f"{NS}h2")).itertext()) for c in cards]
    assert names == [z["zone_name"] for z in doc["zones"]]
    for card, zone in zip(cards, doc["zones"], strict=True):
        text = " ".join("".join(card.itertext()).split())
        assert "Anteil der Einwohner" in text and "Anteil an der PLZ-Fläche" in text
        assert f"{round(zone['area_share'] * 100)} %" in text
    groups = [d for d in tree.iter(f"{NS}div") if d.get("class") == "street-zone"]
    listed = [
        sorted(
            "".join(li.itertext()).split(" (")[0]
            for li in g.iter(f"{NS}li")
            if li.get("data-street")
        )
        for g in groups
    ]
    assert listed == [z["streets"] for z in doc["zones"] if z["streets"]]
    credit = " ".join("".join(tree.itertext()).split())
    assert "Einwohneranteile: Statistische Ämter des Bundes und der Länder, Zensus 2022" in credit


def test_the_export_and_data_package_carry_the_mapping_and_its_inputs(built):
    geo, data, out = built
    export = out / "v1" / "export"
    with (export / "plz-zonen.csv").open(encoding="utf-8", newline="") as fh:
        exported = {(r["plz"], r["zone_id"]): r for r in csv.DictReader(fh)}
    for plz, zone_rows in table(data).items():
        for r in zone_rows:
            row = exported[(plz, r["zone_id"])]
            assert (row["population_share"], row["boundary_source"]) == (
                r["population_share"],
                r["boundary_source"],
            )
    assert (export / "strassen.csv").read_bytes() == (data / "streets.csv").read_bytes()
    package = json.loads((export / "datapackage.json").read_text("utf-8"))
    by_file = {s["file"]: s for s in package["sources"]}
    assert set(by_file) == {p.name for p in geo.iterdir()}
    for name, source in by_file.items():
        assert source["sha256"] == hashlib.sha256((geo / name).read_bytes()).hexdigest()
    recorded = json.loads((data / "mapping.json").read_text("utf-8"))
    stamp = recorded["inputs"]["streets"]["osm_timestamp"]
    assert by_file["streets.osm.pbf"]["date"] == stamp and stamp.endswith("Z")
    assert by_file["zensus_100m.csv"]["edition"] == "Zensus 2022"
    attribution = json.loads((export / "plz-zonen.json").read_text("utf-8"))["attribution"]
    assert [s["license"] for s in attribution["sources"]] == [
        "ODbL-1.0",
        "dl-de/by-2-0",
        "ODbL-1.0",
    ]
