"""The ODbL credit travels with every copy of the PLZ-to-zone mapping, duties included."""

from __future__ import annotations

import csv
import io
import json
from fnmatch import fnmatchcase
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest

from generator import render
from generator.api import odbl, routes
from generator.api.license_resources import odbl_attribution
from generator.config import Config

CONFIG = Config()


@pytest.fixture(scope="module")
def tree(golden_site) -> Path:
    return golden_site  # built with the default configuration, CONFIG


def export(tree: Path) -> dict:
    return json.loads((tree / "v1/export/plz-zonen.json").read_text(encoding="utf-8"))


def test_csv_rows_carry_the_credit_and_still_read_as_rows(tree):
    raw = (tree / "v1/export/plz-zonen.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(raw)))
    pairs = export(tree)["rows"]
    assert len(rows) == len(pairs) == export(tree)["count"]
    credit = render.credit_line(export(tree)["attribution"])
    assert (
        credit.startswith(odbl_attribution(CONFIG.operator, CONFIG.license_url)["credit"])
        and CONFIG.license_url in credit
    )
    for row, pair in zip(rows, pairs, strict=True):
        assert row["attribution"] == credit
        assert (row["plz"], int(row["zone_id"])) == (pair["plz"], pair["zone_id"])
    frame = pl.read_csv(io.StringIO(raw), schema_overrides={"plz": pl.String})
    assert frame.height == len(pairs)
    assert frame["attribution"].unique().to_list() == [credit]
    assert frame["plz"].to_list() == [p["plz"] for p in pairs]


def test_parquet_metadata_carries_license_credit_and_duties(tree):
    path = tree / "v1/export/plz-zonen.parquet"
    meta = {k.decode(): v.decode() for k, v in pq.read_metadata(path).metadata.items()}
    assert meta["license"] == "ODbL-1.0" and meta["license_url"] == CONFIG.license_url
    assert meta["attribution"] == odbl_attribution(CONFIG.operator, CONFIG.license_url)["credit"]
    assert "OpenStreetMap" in meta["source"]
    duties = json.loads(meta["obligations"])
    assert [d["section"] for d in duties] == ["4.4", "4.6", "4.7"]
    # The rows themselves are unchanged by the metadata.
    assert pl.read_parquet(path).height == export(tree)["count"]


def test_datapackage_zone_and_lookup_state_the_duties(tree):
    package = json.loads((tree / "v1/export/datapackage.json").read_text(encoding="utf-8"))
    assert [d["section"] for d in package["obligations"]] == ["4.4", "4.6", "4.7"]
    csv_resource = next(r for r in package["resources"] if r["format"] == "csv")
    assert csv_resource["schema"]["fields"][-1]["name"] == "attribution"
    zone = json.loads((tree / "_data/v1/zones/11.json").read_text(encoding="utf-8"))
    # The zone republishes the mapping (its `plz`): the same credit, duties and map sources.
    lookup = json.loads((tree / "_data/v1/lookup/76437.json").read_text(encoding="utf-8"))
    assert zone["plz"] and zone["attribution"] == lookup["attribution"]
    assert {k: v for k, v in zone["attribution"].items() if k != "sources"} == odbl_attribution(
        CONFIG.operator, CONFIG.license_url
    )
    assert zone["attribution"]["sources"]


@pytest.mark.parametrize(
    ("section", "words"),
    [
        ("4.4", "Any Derivative Database that You Publicly Use must be only under the terms of"),
        ("4.6", "You must also offer to recipients of the Derivative Database or Produced Work"),
        ("4.7", "Parallel distribution."),
    ],
)
def test_duties_quote_the_license(section, words):
    duty = next(o for o in odbl.OBLIGATIONS if o.section == section)
    assert words in duty.text and duty.summary_de


def test_license_link_goes_with_the_files_of_the_mapping():
    globs = routes.odbl_files()

    def licensed(path: str) -> bool:
        return any(fnmatchcase(path, g) for g in globs)

    for name in ("datapackage", "export_parquet", "export_streets"):
        assert licensed(routes.open_file(name))
    assert licensed(routes.file_path("export", format="csv"))
    assert not licensed(routes.open_file("openapi"))
