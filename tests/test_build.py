"""The build end to end: determinism, incremental and atomic writes, resource shapes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from generator import build as build_module
from generator import render
from generator.api import series
from generator.api.license_resources import odbl_attribution
from generator.build import build
from generator.config import Config
from generator.errors import BuildError
from generator.output import state
from generator.output import state as build_state
from generator.output.state import state_dir
from generator.output.tree import TreeWriter, manifest_path, read_manifest
from tests.helpers import AS_OF, GOLDEN_INPUT, edit, series_path, tree_bytes, tree_json


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def run(data, out, as_of=AS_OF, **kw):
    return build(data, out, as_of, Config(), **kw)


@pytest.mark.slow
def test_two_builds_are_byte_identical(tiny_data, tmp_path):
    run(tiny_data, tmp_path / "a")
    run(tiny_data, tmp_path / "b")
    assert tree(tmp_path / "a") == tree(tmp_path / "b")


@pytest.mark.slow
def test_unchanged_rebuild_rewrites_nothing(tiny_data, tmp_path):
    out = tmp_path / "build"
    first = run(tiny_data, out)
    assert first.report.written and first.report.unchanged == 0
    before = {p: os.stat(out / p).st_ino for p in tree(out)}
    second = run(tiny_data, out)
    assert second.report is None  # inputs unchanged: nothing to do at all
    forced = run(tiny_data, out, force=True)
    assert forced.report.written == []
    assert forced.report.deleted == []
    assert forced.report.unchanged == first.report.files
    # Unchanged files are the very same inodes (hard links), not rewritten copies.
    after = {p: os.stat(out / p).st_ino for p in tree(out)}
    assert all(before[p] == ino for p, ino in after.items())


def test_the_manifest_is_kept_beside_the_tree_not_published(tiny_data, golden_build_copy, tmp_path):
    out = golden_build_copy
    assert not (out / state.MANIFEST.name).exists()
    assert manifest_path(out) == tmp_path / "build-state" / state.MANIFEST.name
    files = read_manifest(out)["files"]
    assert set(files) == set(tree(out))  # every file, the keyed ones too: so not published
    assert any(p.startswith("_data/") for p in files)
    # Without its manifest a build cannot take the shortcut, and writes everything again.
    manifest_path(out).unlink()
    again = run(tiny_data, out)
    assert again.report is not None and again.report.unchanged == 0
    assert set(read_manifest(out)["files"]) == set(files)


@pytest.mark.slow
def test_a_crash_between_swap_and_manifest_leaves_no_stale_manifest(
    tiny_data, golden_build_copy, tmp_path, monkeypatch
):
    out = golden_build_copy
    edit(tiny_data, "measurements", 1, value_text="0,07")

    def crash(path, data):
        raise OSError("disk full")

    monkeypatch.setattr("generator.output.tree.atomic_write", crash)
    with pytest.raises(OSError):
        run(tiny_data, out)
    # The new tree is published, and no manifest claims digests of the old one.
    assert b"0,07" in tree_bytes(series_path(out, 11))
    assert not manifest_path(out).exists()
    monkeypatch.undo()
    edit(tiny_data, "measurements", 1, value_text="0,08")
    run(tiny_data, out)
    assert b"0,07" not in tree_bytes(series_path(out, 11))


def test_changing_one_measurement_rewrites_only_its_files(tiny_data, golden_build_copy, tmp_path):
    out = golden_build_copy
    # Row 1 is an older PFAS-20 sample of zone 11: only its series change, not the
    # zone's current values.
    edit(tiny_data, "measurements", 1, value_text="0,07")
    report = run(tiny_data, out).report
    api = {p for p in report.written if p.startswith(("_data/", "v1/"))}
    assert api == {"_data/v1/zones/11/measurements.json.gz"}
    assert all("11" in p for p in report.written), report.written
    assert report.deleted == []


@pytest.mark.slow
def test_stale_files_are_deleted(tiny_data, golden_build_copy, tmp_path):
    out = golden_build_copy
    rows = (tiny_data / "measurements.csv").read_text(encoding="utf-8").splitlines()
    kept = [r for r in rows if ",geruch," not in r]
    (tiny_data / "measurements.csv").write_text("\n".join(kept) + "\n", encoding="utf-8")
    report = run(tiny_data, out).report
    assert "_data/v1/zones/11/measurements.json.gz" in report.written
    assert "geruch" not in tree_bytes(series_path(out, 11)).decode()
    # A postal code that is gone leaves no files behind.
    # (the tables keyed by PLZ lose it too: a place or street of an unknown PLZ is an error)
    for name in ("plz_zones.csv", "places.csv", "streets.csv"):
        if (tiny_data / name).exists():
            rows = (tiny_data / name).read_text(encoding="utf-8").splitlines()
            kept = [r for r in rows if not r.startswith("01067,")]
            (tiny_data / name).write_text("\n".join(kept) + "\n", encoding="utf-8")
    report = run(tiny_data, out).report
    assert "_data/v1/lookup/01067.json" in report.deleted
    assert not (out / "_data/v1/lookup/01067.json").exists()


@pytest.mark.slow
def test_failure_while_writing_leaves_previous_tree(
    tiny_data, golden_build_copy, tmp_path, monkeypatch
):
    out = golden_build_copy
    before = tree(out)
    real = render.render_all

    def broken(*args, **kwargs):
        for i, item in enumerate(real(*args, **kwargs)):
            if i == 20:
                raise OSError("disk full (simulated)")
            yield item

    monkeypatch.setattr(render, "render_all", broken)
    edit(tiny_data, "measurements", 1, value_text="0,07")
    files = (build_state.ZONE_ROWS, build_state.ZONE_DOCUMENTS, build_state.NATIONAL_ROWS)
    kept = [file.path(out) for file in files]
    kept.append(build_state.CURRENT_VALUES.member(out, build_state.VALUES_INDEX))
    rows = [path.read_bytes() for path in kept]
    with pytest.raises(OSError, match="disk full"):
        run(tiny_data, out)
    assert tree(out) == before
    assert not list(tmp_path.glob(".build.staging*"))
    # Every file of the old tree is still complete and parses.
    for rel, payload in before.items():
        if rel.endswith(".json"):
            json.loads(payload)
    # The rows for the next build were written beside the old ones, not over them.
    assert [path.read_bytes() for path in kept] == rows
    assert list(state_dir(out).rglob(".*.tmp"))
    monkeypatch.undo()
    run(tiny_data, out)
    assert not list(state_dir(out).rglob(".*.tmp"))
    assert [path.read_bytes() for path in kept] != rows


def test_writer_refuses_escapes_and_double_writes(tmp_path):
    with TreeWriter(tmp_path / "out") as w:
        with pytest.raises(BuildError):
            w.write("../evil.json", b"{}")
        with pytest.raises(BuildError):
            w.write("/etc/passwd", b"")
        w.write("a/b.json", b"{}")
        with pytest.raises(BuildError, match="same file"):
            w.write("a/b.json", b"{}")


@pytest.mark.parametrize(
    "rel", ["", "..", "a/../x.json", "a/./x.json", "a//x.json", "a/", "/a/x.json", "a/x/.."]
)
def test_writer_refuses_paths_out_of_the_tree(tmp_path, rel):
    # Also in a folder it wrote to before (the short way a path is checked).
    with TreeWriter(tmp_path / "out") as w:
        w.write("a/b.json", b"{}")
        with pytest.raises(BuildError, match="outside the tree"):
            w.write(rel, b"{}")
        assert set(w.files) == {"a/b.json"}
    assert not (tmp_path / "x.json").exists()


def test_writer_refuses_a_file_where_a_folder_is(tmp_path):
    with TreeWriter(tmp_path / "out") as w:
        w.write("a/b/c.json", b"{}")
        for rel in ("a", "a/b"):  # a folder of a file staged before
            with pytest.raises(BuildError, match=f"^{rel} would be both a file and a folder"):
                w.write(rel, b"{}")
        w.write("d", b"{}")
        for rel in ("d/e.json", "d/e/f.json"):  # under a file staged before
            with pytest.raises(BuildError, match="^d would be both a file and a folder"):
                w.write(rel, b"{}")
        assert set(w.files) == {"a/b/c.json", "d"}


def test_no_directory_over_the_entry_limit(tmp_path, monkeypatch):
    from generator.output import tree as write

    monkeypatch.setattr(write, "MAX_DIR_ENTRIES", 3)
    with TreeWriter(tmp_path / "out") as w:
        for i in range(3):
            w.write(f"d/{i}.json", b"{}")
        with pytest.raises(BuildError, match="more than 3 entries"):
            w.write("d/3.json", b"{}")


def test_sample_tree_directories_stay_small(sample_build):
    for directory in [sample_build, *[p for p in sample_build.rglob("*") if p.is_dir()]]:
        assert len(os.listdir(directory)) <= 50_000


# ---------------------------------------------------------------------------- shapes


def load_json(out: Path, rel: str):
    return json.loads((out / rel).read_text(encoding="utf-8"))


def test_lookup_clear_plz(golden_site):
    doc = load_json(golden_site, "_data/v1/lookup/01067.json")
    assert doc["ambiguous"] is False and doc["ambiguity_reasons"] == []
    assert doc["ambiguity_note"] is None
    assert [z["zone_id"] for z in doc["zones"]] == [11]
    assert doc["zones"][0]["supplier_name"] == "Wasserwerke Kleinstadt (Testdaten)"


def test_lookup_split_plz(golden_site):
    doc = load_json(golden_site, "_data/v1/lookup/76437.json")
    assert doc["ambiguous"] is True and doc["ambiguity_reasons"] == ["split"]
    # 60 % of the area lies in zone 11, 75 % of the people live in zone 12: it leads.
    assert doc["ranked_by"] == "population_share"
    zones = [(z["zone_id"], z["area_share"], z["population_share"]) for z in doc["zones"]]
    assert zones == [(12, 0.4, 0.75), (11, 0.6, 0.25)]
    assert "2 zones each serve at least 10% of the inhabitants" in doc["ambiguity_note"]
    streets = {z["zone_id"]: z["streets"] for z in doc["zones"]}
    assert streets == {12: ["Am Bach", "Hauptstraße"], 11: ["Hauptstraße", "Ringstraße"]}


def test_lookup_without_population_shares_ranks_by_area(golden_site):
    doc = load_json(golden_site, "_data/v1/lookup/04109.json")
    assert doc["ranked_by"] == "area_share"
    assert [(z["population_share"], z["boundary_source"]) for z in doc["zones"]] == [
        (None, None),
        (None, None),
    ]
    assert all(z["streets"] == [] for z in doc["zones"])


def test_lookup_small_second_zone_is_not_ambiguous(golden_site):
    doc = load_json(golden_site, "_data/v1/lookup/04109.json")
    assert doc["ambiguous"] is False
    assert [z["zone_id"] for z in doc["zones"]] == [21, 12]


def test_lookup_low_confidence_plz(golden_site):
    doc = load_json(golden_site, "_data/v1/lookup/84503.json")
    assert doc["ambiguous"] is True and doc["ambiguity_reasons"] == ["low_confidence"]


def test_odbl_attribution_on_lookup_and_json_export(golden_site):
    config = Config()
    for rel in ("_data/v1/lookup/01067.json", "v1/export/plz-zonen.json"):
        attribution = load_json(golden_site, rel)["attribution"]
        sources = attribution.pop("sources")
        assert attribution == odbl_attribution(config.operator, config.license_url)
        # From the data directory's mapping.json: each credited source with its date.
        assert [(s["title"], s["license"], s["date"]) for s in sources] == [
            ("PLZ-Gebiete", "ODbL-1.0", "2026-10-30"),
            ("Bevölkerungsgitter, Zensus 2022 (100m)", "dl-de/by-2-0", "2024-06-25"),
            ("Straßennamen", "ODbL-1.0", "2026-11-01T20:21:54Z"),
        ]
        assert sources[1]["credit"] == "Statistische Ämter des Bundes und der Länder, Zensus 2022"
        assert sources[1]["edition"] == "Zensus 2022"
        assert "OpenStreetMap" in attribution["credit"] and config.operator in attribution["credit"]
        assert attribution["license_url"].startswith("https://opendatacommons.org/")


def test_export_is_complete_and_has_no_measured_values(golden_site):
    import polars as pl

    doc = load_json(golden_site, "v1/export/plz-zonen.json")
    source = pl.read_csv(GOLDEN_INPUT / "plz_zones.csv", schema_overrides={"plz": pl.String})
    assert doc["count"] == source.height == len(doc["rows"])
    pairs = {(r["plz"], r["zone_id"]) for r in doc["rows"]}
    assert pairs == set(zip(source["plz"], source["zone_id"], strict=True))
    csv = pl.read_csv(golden_site / "v1/export/plz-zonen.csv", schema_overrides={"plz": pl.String})
    parquet = pl.read_parquet(golden_site / "v1/export/plz-zonen.parquet")
    # The CSV carries the ODbL credit as its last column (tests/test_odbl.py).
    assert csv.drop("attribution").equals(parquet)
    assert parquet.columns == [
        "plz",
        "zone_id",
        "zone_name",
        "supplier_id",
        "supplier_name",
        "area_share",
        "confidence",
        "population_share",
        "boundary_source",
    ]
    row = csv.filter(pl.col("plz") == "76437", pl.col("zone_id") == 12).row(0, named=True)
    assert (row["population_share"], row["boundary_source"]) == (0.75, "supplier")
    streets = pl.read_csv(golden_site / "v1/export/strassen.csv")
    source_streets = pl.read_csv(GOLDEN_INPUT / "streets.csv")
    # The street names are OpenStreetMap data: every row carries the credit, as plz-zonen.csv.
    assert streets.columns == ["plz", "street", "zone_id", "length_share", "attribution"]
    assert streets["attribution"].unique().to_list() == csv["attribution"].unique().to_list()
    assert "OpenStreetMap" in streets["attribution"][0] and "ODbL" in streets["attribution"][0]
    assert (
        streets.drop("attribution")
        .sort("plz", "street", "zone_id")
        .equals(source_streets.sort("plz", "street", "zone_id"))
    )
    forbidden = {"value", "value_text", "parameter", "normalized_value"}
    assert not forbidden & set(csv.columns)
    assert not forbidden & set(doc["rows"][0])


def test_datapackage_describes_the_export(golden_site):
    import hashlib

    pkg = load_json(golden_site, "v1/export/datapackage.json")
    assert pkg["licenses"][0]["name"] == "ODbL-1.0"
    assert "OpenStreetMap" in pkg["attribution"]
    paths = {r["path"]: r for r in pkg["resources"]}
    assert set(paths) == {"plz-zonen.csv", "plz-zonen.json", "plz-zonen.parquet", "strassen.csv"}
    for name, resource in paths.items():
        payload = (golden_site / "v1/export" / name).read_bytes()
        assert resource["bytes"] == len(payload)
        assert resource["hash"] == "sha256:" + hashlib.sha256(payload).hexdigest()
        assert [f["name"] for f in resource["schema"]["fields"]][0] == "plz"
    assert paths["strassen.csv"]["schema"]["primaryKey"] == ["plz", "street", "zone_id"]
    assert paths["strassen.csv"]["schema"]["fields"][-1]["name"] == "attribution"
    # The sources: each input of mapping.json with its file, date and digest.
    by_file = {s.get("file"): s for s in pkg["sources"]}
    assert set(by_file) == {
        "plz_areas.geojson",
        "zone_areas.gpkg",
        "Zensus2022_Bevoelkerungszahl_100m-Gitter.csv",
        "baden-wuerttemberg-latest.osm.pbf",
    }
    grid = by_file["Zensus2022_Bevoelkerungszahl_100m-Gitter.csv"]
    assert grid["license"] == "dl-de/by-2-0" and grid["edition"] == "Zensus 2022"
    assert grid["date"] == "2024-06-25" and len(grid["sha256"]) == 64
    osm = by_file["baden-wuerttemberg-latest.osm.pbf"]
    assert osm["date"] == "2026-11-01T20:21:54Z"
    assert osm["path"] == "https://www.openstreetmap.org/copyright"
    assert "Zensus 2022" in pkg["description"]


def test_zone_current_values_and_provenance(golden_site):
    doc = load_json(golden_site, "_data/v1/zones/11.json")
    values = {v["parameter"]: v for v in doc["current_values"]}
    pfas = values["pfas_summe_20"]
    assert pfas["value_text"] == "0,14" and pfas["sampled_at"] == "2026-03-10"
    assert pfas["state"] == "exceeds_limit"
    assert pfas["provenance"]["document_id"] == "wk-2026"
    assert pfas["provenance"]["edition_date"] == "2026-06-30"
    assert pfas["provenance"]["retrieved_date"] == "2026-07-02"
    assert values["pfas_summe_4"]["future_state"] == "below_limit"
    assert values["blei"]["future_state"] == "exceeds_limit"
    assert values["temperatur"]["value"] == 12.6
    assert doc["plz"] == ["01067", "76437"]
    zone12 = {
        v["parameter"]: v
        for v in load_json(golden_site, "_data/v1/zones/12.json")["current_values"]
    }
    assert zone12["pfas_summe_4"]["future_state"] == "exceeds_limit"
    assert zone12["blei"]["state"] == "not_measured"
    assert zone12["nitrat"]["state"] == "not_detected"
    zone21 = {
        v["parameter"]: v
        for v in load_json(golden_site, "_data/v1/zones/21.json")["current_values"]
    }
    # The latest PFAS-20 value is "< BG" in ng/l: kept verbatim, not assessable.
    assert zone21["pfas_summe_20"]["value_text"] == "< BG"
    assert zone21["pfas_summe_20"]["state"] == "not_assessable"
    assert zone21["elektrische_leitfaehigkeit"]["normalized_value"] == 520.0
    assert zone21["nitrat"]["state"] == "exceeds_limit"


def test_measurements_verbatim_sorted_and_filtered(golden_site):
    doc = tree_json(series_path(golden_site, 11))
    keys = [(m["parameter"], m["sampled_at"]) for m in doc["measurements"]]
    assert keys == sorted(keys) and doc["count"] == len(keys) == 12
    assert {d["document_id"] for d in doc["documents"]} == {"wk-2025", "wk-2026"}
    body = tree_bytes(series_path(golden_site, 11))
    one = json.loads(series.filter_series(body, "pfas_summe_20", {"zone_id": "11"}))
    assert one["parameter"] == "pfas_summe_20"
    assert [m["value_text"] for m in one["measurements"]] == ["0,08", "0,09", "0,14"]
    assert not (golden_site / "_data/v1/zones/11/measurements").exists()  # no file per filter


def test_parameters_and_limits(golden_site):
    register = load_json(golden_site, "v1/parameters.json")
    assert register["count"] == 282 == len(register["parameters"])
    limits = load_json(golden_site, "_data/v1/parameters/pfas_summe_20/limits.json")
    assert [(x["value"], x["unit"], x["valid_from"]) for x in limits["limits"]] == [
        (0.1, "µg/l", "2026-01-12")
    ]
    assert load_json(golden_site, "_data/v1/parameters/temperatur/limits.json")["limits"] == []


def test_atomic_write_replaces_in_one_step_and_leaves_no_temporary_file(tmp_path):
    from generator.output.atomic import atomic_write, atomic_write_all

    target = tmp_path / "sub" / "file.txt"
    atomic_write(target, b"one")
    atomic_write(target, lambda tmp: tmp.write_bytes(b"two"), mode=0o600)
    assert target.read_bytes() == b"two"
    assert target.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in target.parent.iterdir()) == ["file.txt"]

    def broken(tmp):
        tmp.write_bytes(b"half")
        raise OSError("disk full")

    other = tmp_path / "sub" / "other.txt"
    with pytest.raises(OSError, match="disk full"):
        atomic_write_all([(other, b"new"), (target, broken)])
    # Nothing was renamed: the first file is not there, the second is as it was.
    assert not other.exists() and target.read_bytes() == b"two"
    assert sorted(p.name for p in target.parent.iterdir()) == ["file.txt"]


def test_prepared_files_are_on_disk_beside_their_targets_until_published(tmp_path):
    from generator.output.atomic import leftovers, prepare_all

    target, other = tmp_path / "a.bin", tmp_path / "b.bin"
    target.write_bytes(b"old")
    prepared = prepare_all([(target, b"new"), (other, b"other")])
    assert target.read_bytes() == b"old" and not other.exists()
    assert leftovers(target) and leftovers(other)
    prepared.publish()
    assert (target.read_bytes(), other.read_bytes()) == (b"new", b"other")
    assert not leftovers(target) and not leftovers(other)
    prepare_all([(target, b"newer")]).discard()
    assert target.read_bytes() == b"new" and not leftovers(target)


def test_the_planned_api_files_are_the_api_files_a_build_writes(golden_site, golden_derived):
    from generator.build import API_PREFIXES

    d = golden_derived
    written = [
        path for path in read_manifest(golden_site)["files"] if path.startswith(API_PREFIXES)
    ]
    assert render.api_file_count(d) == len(written)


def test_only_the_writer_replaces_files():
    """One I/O package: no module outside generator/output/ renames a file into place."""
    package = Path(__file__).resolve().parents[1] / "generator"
    calls = ("os.replace(", "os.rename(", "mkstemp(")
    writing = sorted(
        p.relative_to(package).as_posix()
        for p in package.rglob("*.py")
        if any(call in p.read_text(encoding="utf-8") for call in calls)
    )
    assert writing == ["output/atomic.py", "output/tree.py"]


def test_a_build_queries_with_the_in_memory_engine_unless_the_operator_chose(
    tiny_data, tmp_path, monkeypatch
):
    seen = []
    render_all = render.render_all

    def spy(*args, **kwargs):
        seen.append(os.environ.get(build_module.ENGINE_VARIABLE))
        return render_all(*args, **kwargs)

    monkeypatch.setattr(build_module.render, "render_all", spy)
    monkeypatch.delenv(build_module.ENGINE_VARIABLE, raising=False)
    build(tiny_data, tmp_path / "a", AS_OF, Config())
    assert seen == [build_module.ENGINE] == ["in-memory"]
    assert build_module.ENGINE_VARIABLE not in os.environ  # put back as it was
    monkeypatch.setenv(build_module.ENGINE_VARIABLE, "streaming")
    build(tiny_data, tmp_path / "b", AS_OF, Config())
    assert seen[1:] == ["streaming"]
    assert tree(tmp_path / "a") == tree(tmp_path / "b")  # the same tree
