"""No formula through a CSV, no script through a link: hostile cells written by the tests."""

from __future__ import annotations

import csv
import io
import shutil
import tomllib

import polars as pl
import pytest
from click.testing import CliRunner

from generator.api import http
from generator.build import build
from generator.cli import cli
from generator.config import Config
from generator.errors import SourceDataError
from generator.output.csv_cells import safe_frame, write_csv
from tests.helpers import AS_OF, TESTS, edit, read_rows

HOSTILE = {
    '=HYPERLINK("http://evil.example","klick")': '\'=HYPERLINK("http://evil.example","klick")',
    "+cmd|' /C calc'!A0": "'+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0": "'-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)": "'@SUM(1+1)",
    "\t=1+1": "'\t=1+1",
    "\r=1+1": "'\r=1+1",
    "-": "'-",
}
NUMBERS = ["-0,5", "+0,24", "-23", "1.234,5", "-1e-3", "0.5", "< 0,001", "Kleinstadt"]


def test_cells_a_spreadsheet_would_run_get_an_apostrophe_numbers_do_not():
    frame = pl.DataFrame(
        {"text": [*HOSTILE, *NUMBERS, None], "number": [-0.5] * (len(HOSTILE) + len(NUMBERS) + 1)}
    )
    safe = safe_frame(frame)
    assert safe["text"].to_list() == [*HOSTILE.values(), *NUMBERS, None]
    assert safe["number"].to_list() == frame["number"].to_list()
    rows = list(csv.reader(io.StringIO(write_csv(frame), newline="")))
    assert [r[0] for r in rows[1:]] == [*HOSTILE.values(), *NUMBERS, ""]
    assert {r[1] for r in rows[1:]} == {"-0.5"}


def test_the_published_csv_files_hold_no_formula(tiny_data, tmp_path):
    edit(tiny_data, "zones", 1, name='=HYPERLINK("http://evil.example","klick")')
    edit(tiny_data, "suppliers", 1, name="@SUM(1+1)")
    edit(tiny_data, "streets", 1, street="-2+3+cmd|' /C calc'!A0")
    out = tmp_path / "build"
    build(tiny_data, out, AS_OF, Config(), force=True)
    export = read_rows(out / "v1" / "export" / "plz-zonen.csv")
    names = {r["zone_name"] for r in export} | {r["supplier_name"] for r in export}
    assert '\'=HYPERLINK("http://evil.example","klick")' in names
    assert "'@SUM(1+1)" in names
    streets = {r["street"] for r in read_rows(out / "v1" / "export" / "strassen.csv")}
    assert "'-2+3+cmd|' /C calc'!A0" in streets
    for path in (out / "v1" / "export").glob("*.csv"):
        for row in read_rows(path):
            for cell in row.values():
                assert cell[:1] not in ("=", "+", "@", "\t", "\r"), (path.name, cell)
    # The JSON keeps the name as it is: only the CSV cell is neutralised.
    assert "=HYPERLINK" in (out / "v1" / "export" / "plz-zonen.json").read_text(encoding="utf-8")


def test_parameters_match_prints_no_formula(tmp_path):
    names = tmp_path / "names.csv"
    names.write_text('name,unit\n"=1+1",mg/l\n@cmd,\nNitrat,mg/l\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["parameters", "match", str(names)])
    assert result.exit_code == 0, result.output
    printed = result.stdout
    rows = list(csv.DictReader(io.StringIO(printed, newline="")))
    assert [r["name"] for r in rows] == ["'=1+1", "'@cmd", "Nitrat"]


# ------------------------------------------------------------------ links


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(document.cookie)",
        "JAVASCRIPT:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox(1)",
        "//evil.example/x",
        " https://www.gesetze-im-internet.de/",
    ],
)
def test_a_limit_source_that_is_no_http_url_is_refused(tiny_data, tmp_path, url):
    from generator.load import reference_dir

    limits = tiny_data / "limits.csv"
    shutil.copy(reference_dir() / "limits.csv", limits)
    edit(tiny_data, "limits", 1, source_url=url)
    with pytest.raises(SourceDataError) as caught:
        build(tiny_data, tmp_path / "build", AS_OF, Config(), force=True)
    problems = caught.value.problems
    hits = problems.filter(
        (pl.col("table") == "limits")
        & (pl.col("column") == "source_url")
        & (pl.col("rule") == "malformed_url")
    )
    assert hits.height == 1, problems
    assert not (tmp_path / "build").exists()


@pytest.mark.parametrize(
    "table,column",
    [("suppliers", "website"), ("documents", "url")],
)
def test_every_url_column_refuses_a_script_url(tiny_data, tmp_path, table, column):
    edit(tiny_data, table, 1, **{column: "javascript:alert(1)"})
    with pytest.raises(SourceDataError) as caught:
        build(tiny_data, tmp_path / "build", AS_OF, Config(), force=True)
    problems = caught.value.problems
    assert problems.filter((pl.col("table") == table) & (pl.col("column") == column)).height == 1, (
        problems
    )


def test_every_url_column_of_the_contract_is_checked_as_http():
    from generator.contract.formats import URL
    from generator.contract.tables import ALL_TABLES

    tables = {t.name: t for t in ALL_TABLES}
    url_columns = [
        (t.name, c.name)
        for t in tables.values()
        for c in t.columns
        if c.name.endswith("url") or c.name == "website"
    ]
    assert ("limits", "source_url") in url_columns
    for name, column in url_columns:
        checks = next(c for c in tables[name].columns if c.name == column).rules
        assert URL in checks, f"{name}.{column} accepts any text"


def test_the_python_gate_sends_the_policy_with_every_page(golden_site):
    import httpx

    from generator.gate.app import create_app
    from generator.gate.sqlite_state import open_state
    from tests.conformance.support import event_loop_thread

    state = open_state(golden_site.parent / "csp-state")
    with event_loop_thread() as portal:
        client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=create_app(golden_site, state)),
            base_url="http://gate",
        )
        for target, status in [("/", 200), ("/plz/76437/", 200), ("/nirgends/", 404)]:
            answer = portal.call(client.get, target)
            assert answer.status_code == status
            assert answer.headers["content-security-policy"] == http.CONTENT_SECURITY_POLICY
        portal.call(client.aclose)


def test_netlify_declares_the_same_policy_for_every_path():
    config = tomllib.loads((TESTS.parent / "netlify.toml").read_text(encoding="utf-8"))
    everywhere = next(h for h in config["headers"] if h["for"] == "/*")
    assert everywhere["values"]["Content-Security-Policy"] == http.CONTENT_SECURITY_POLICY
    policy = dict(p.strip().split(" ", 1) for p in http.CONTENT_SECURITY_POLICY.split(";"))
    assert policy["script-src"] == "'self'" and policy["default-src"] == "'self'"
    assert "unsafe-inline" not in policy["script-src"]


def test_the_mappings_csv_outputs_hold_no_formula(tmp_path):
    pytest.importorskip("osmium")
    from tests.mapping_helpers import mapping, rows, two_plz_three_zones, write_osm_xml

    plz, zones = two_plz_three_zones(tmp_path)
    hostile = "=HYPERLINK(&quot;http://evil.example&quot;)"  # XML-escaped in the .osm file
    osm = write_osm_xml(
        tmp_path / "hessen.osm",
        ways=[(10, {"highway": "residential", "name": hostile}, [(200, 500), (600, 500)])],
    )
    out = tmp_path / "out" / "plz_zones.csv"
    streets = tmp_path / "out" / "streets.csv"
    result = mapping(plz, zones, "--streets", osm, "--streets-out", streets, "--out", out)
    assert result.exit_code == 0, result.output
    assert {r["street"] for r in rows(streets)} == {'\'=HYPERLINK("http://evil.example")'}
    for path in (out, streets, out.with_name("mapping-report.csv")):
        for row in rows(path):
            assert not any(cell[:1] in ("=", "+", "@", "\t", "\r") for cell in row.values())
