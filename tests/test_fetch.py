"""`trinkwasser fetch`: two local HTTP servers on loopback stand in for suppliers' sites.

They answer 200 (with ETag and Last-Modified, and 304 to a matching conditional request),
301, 404, 429 with Retry-After, 500, too slowly, too much, and a robots.txt that forbids a
path. The tests check what was requested, archived, imported and reported, and that a
second run fetches nothing new. Nothing reaches the internet.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from generator.build import build
from generator.cli import cli
from generator.config import Config
from generator.errors import SourceDataError
from generator.fetch.archive import Archive
from generator.fetch.edition import edition_date
from generator.fetch.polite import user_agent
from generator.fetch.report import format_run
from generator.fetch.run import run
from generator.load import check
from generator.retries import retry_after
from tests.fetch_helpers import ANALYSE, CONFIG, DAY, RULES, Document, Site
from tests.fetch_helpers import send as _send
from tests.fetch_helpers import serve as _serve
from tests.fetch_helpers import static as _static
from tests.helpers import GOLDEN_INPUT, check_report

ANALYSE_2 = ANALYSE.replace("16.07.2026", "02.11.2026").replace("24,2", "25,9")
UMZUG = "Analyse Kleinstadt Höhe, Stand 30.06.2026\nParameter;Einheit;Messwert\nNitrat;mg/l;12\n"
SEELAND = (
    "Analysenwerte Seeland Nord (Stand: 01.10.2026)\nParameter;Einheit;Wert\nNitrat;mg/l;8,1\n"
)
OHNE_STAND = "Parameter;Einheit;Wert\nNitrat;mg/l;3,3\n"
ROBOTS = "User-agent: *\nDisallow: /privat/\n"


def _busy_then(document: Document) -> Callable[[BaseHTTPRequestHandler], None]:
    calls = {"n": 0}

    def handle(h: BaseHTTPRequestHandler) -> None:
        calls["n"] += 1
        if calls["n"] == 1:
            _send(h, 429, b"slow down", Retry_After="1")
        else:
            document(h)

    return handle


def _slow(h: BaseHTTPRequestHandler) -> None:
    h.send_response(200)
    h.send_header("Content-Length", "100")
    h.end_headers()
    h.wfile.write(b"Parameter;")
    h.wfile.flush()
    time.sleep(3)
    h.wfile.write(b"x" * 90)


def _huge_unannounced(h: BaseHTTPRequestHandler) -> None:
    # No Content-Length: the cap must stop the reading itself.
    h.send_response(200)
    h.send_header("Content-Type", "text/csv")
    h.end_headers()
    for _ in range(50):
        h.wfile.write(b"x" * 1000 + b"\n")
    h.close_connection = True


@pytest.fixture
def documents() -> dict[str, Document]:
    return {
        "analyse": Document(ANALYSE),
        "neu": Document(UMZUG),
        "seeland": Document(SEELAND),
        "ohne": Document(OHNE_STAND),
        "pdf": Document("%PDF-1.4 Stand: 01.09.2026", "application/pdf"),
    }


@pytest.fixture
def kleinstadt(documents) -> Iterator[Site]:
    site = Site(
        {
            "/robots.txt": _static(200, ROBOTS.encode()),
            "/analyse.csv": documents["analyse"],
            "/alt.csv": _static(301, Location="/neu.csv"),
            "/neu.csv": documents["neu"],
            "/weg.csv": _static(404, b"nicht gefunden"),
            "/kreis.csv": _static(302, Location="/kreis.csv"),
            "/bericht.pdf": documents["pdf"],
        }
    )
    yield from _serve(site)


@pytest.fixture
def seeland(documents) -> Iterator[Site]:
    site = Site(
        {
            "/robots.txt": _static(200, ROBOTS.encode()),
            "/busy.csv": _busy_then(documents["seeland"]),
            "/kaputt.csv": _static(500, b"Fehler"),
            "/langsam.csv": _slow,
            "/gross.csv": _static(200, b"x" * 30_000, Content_Type="text/csv"),
            "/riesig.csv": _huge_unannounced,
            "/privat/werte.csv": _static(200, b"geheim"),
            "/ohne-stand.csv": documents["ohne"],
        }
    )
    yield from _serve(site)


SOURCES = [
    # source_id, supplier, zone, host, path
    ("kleinstadt-analyse", 1, 11, "k", "/analyse.csv"),
    ("kleinstadt-umzug", 1, 12, "k", "/alt.csv"),
    ("kleinstadt-weg", 1, 13, "k", "/weg.csv"),
    ("kleinstadt-kreis", 1, 12, "k", "/kreis.csv"),
    ("kleinstadt-bericht", 1, 11, "k", "/bericht.pdf"),
    ("seeland-busy", 2, 21, "s", "/busy.csv"),
    ("seeland-kaputt", 2, 22, "s", "/kaputt.csv"),
    ("seeland-langsam", 2, 23, "s", "/langsam.csv"),
    ("seeland-gross", 2, 21, "s", "/gross.csv"),
    ("seeland-riesig", 2, 21, "s", "/riesig.csv"),
    ("seeland-privat", 2, 22, "s", "/privat/werte.csv"),
    ("seeland-ohne-stand", 2, 23, "s", "/ohne-stand.csv"),
]


@pytest.fixture
def data(tmp_path, kleinstadt, seeland) -> Path:
    target = tmp_path / "data"
    shutil.copytree(GOLDEN_INPUT, target)
    hosts = {"k": kleinstadt.url, "s": seeland.url}
    lines = ["source_id,supplier_id,zone_id,url,title"]
    for source_id, supplier, zone, host, path in SOURCES:
        lines.append(f"{source_id},{supplier},{zone},{hosts[host]}{path},Analyse {source_id}")
    (target / "sources.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    # The document of 2025 was published at the address that now answers 404.
    docs = target / "documents.csv"
    text = docs.read_text(encoding="utf-8")
    docs.write_text(
        text.replace("https://wasser-kleinstadt.example/analyse-2025.pdf", hosts["k"] + "/weg.csv"),
        encoding="utf-8",
    )
    return target


def _run(data: Path, archive: Path, when: dt.datetime = DAY, **kw):
    return run(data, archive, CONFIG, RULES, clock=lambda: when, **kw)


def _by_id(result):
    return {r.source_id: r for r in result.sources}


def test_first_run_fetches_archives_and_reports_every_answer(data, tmp_path, kleinstadt, seeland):
    archive = tmp_path / "archive"
    result = _run(data, archive)
    got = _by_id(result)
    assert {k: v.status for k, v in got.items()} == {
        "kleinstadt-analyse": "new",
        "kleinstadt-umzug": "new",
        "kleinstadt-weg": "failed",
        "kleinstadt-kreis": "failed",
        "kleinstadt-bericht": "new",
        "seeland-busy": "new",
        "seeland-kaputt": "failed",
        "seeland-langsam": "failed",
        "seeland-gross": "failed",
        "seeland-riesig": "failed",
        "seeland-privat": "failed",
        "seeland-ohne-stand": "new",
    }
    assert got["kleinstadt-umzug"].moved
    assert got["kleinstadt-umzug"].final_url == kleinstadt.url + "/neu.csv"
    assert got["kleinstadt-weg"].reason == "HTTP 404" and got["kleinstadt-weg"].gone
    assert got["seeland-kaputt"].reason == "HTTP 500" and got["seeland-kaputt"].gone
    assert got["kleinstadt-kreis"].reason == "more than 5 redirects"
    assert kleinstadt.paths().count("/kreis.csv") == 6  # the first request and 5 redirects
    assert got["seeland-langsam"].reason == "no complete answer within 1 s"
    assert "size cap (30000 bytes declared" in got["seeland-gross"].reason
    assert got["seeland-riesig"].reason == "larger than the size cap (20000 bytes)"
    assert "robots.txt" in got["seeland-privat"].reason and not got["seeland-privat"].gone

    # robots.txt read once per host, the forbidden path never asked for
    assert kleinstadt.paths().count("/robots.txt") == 1
    assert seeland.paths().count("/robots.txt") == 1
    assert "/privat/werte.csv" not in seeland.paths()
    # 429 waited for and retried; 500 retried twice more (3 tries), then given up
    assert seeland.paths().count("/busy.csv") == 2
    assert seeland.paths().count("/kaputt.csv") == 3
    busy = [t for t, p, _ in seeland.log if p == "/busy.csv"]
    assert busy[1] - busy[0] >= 1.0  # Retry-After: 1
    # Every request names the operator and its contact; none is conditional the first time.
    for site in (kleinstadt, seeland):
        for _, _path, headers in site.log:
            assert headers["User-Agent"] == user_agent(CONFIG)
            assert "Wasserdaten Pruefbetrieb" in headers["User-Agent"]
            assert "abruf@pruef.example" in headers["User-Agent"]
            assert "If-None-Match" not in headers
    # One host's requests are spaced; the two hosts are fetched at the same time.
    for site in (kleinstadt, seeland):
        times = [t for t, _, _ in site.log]
        assert all(b - a >= RULES.delay for a, b in zip(times, times[1:], strict=False))
    k_times = [t for t, _, _ in kleinstadt.log]
    s_times = [t for t, _, _ in seeland.log]
    assert min(s_times) < max(k_times) and min(k_times) < max(s_times)

    # The archive: the bytes by their SHA-256, a manifest per source.
    store = Archive(archive)
    manifest = store.manifest("kleinstadt-analyse")
    version = manifest.latest
    assert store.read(version.sha256) == ANALYSE.encode()
    assert (archive / "objects" / version.sha256[:2] / version.sha256).is_file()
    assert version.etag and version.last_modified == "Mon, 02 Nov 2026 08:00:00 GMT"
    assert version.content_type == "text/csv; charset=utf-8"
    assert version.retrieved_at == "2026-11-26T06:00:00Z"
    assert version.import_state == "pending"  # no --import
    moved = store.manifest("kleinstadt-umzug").latest
    assert moved.url == kleinstadt.url + "/alt.csv"
    assert moved.final_url == kleinstadt.url + "/neu.csv"
    failed = json.loads((archive / "sources" / "kleinstadt-weg.json").read_text())
    assert failed["versions"] == []
    assert failed["checks"][-1]["status"] == 404 and failed["checks"][-1]["result"] == "failed"

    report = format_run(result)
    assert "5 new, 0 changed, 0 unchanged, 1 moved, 7 failed." in report
    assert "kleinstadt-weg      failed     HTTP 404 (the link no longer answers)" in report
    assert f"moved to {kleinstadt.url}/neu.csv" in report
    assert "5 version(s) wait for import: run again with --import." in report


def test_a_second_run_fetches_nothing_new(data, tmp_path, kleinstadt, seeland, documents):
    archive = tmp_path / "archive"
    _run(data, archive, import_=True)
    objects = sorted((archive / "objects").rglob("*"))
    measurements = (data / "measurements.csv").read_bytes()
    docs = (data / "documents.csv").read_bytes()
    bodies = documents["analyse"].bodies
    kleinstadt.log.clear()

    second = _by_id(_run(data, archive, DAY + dt.timedelta(days=1), import_=True))
    assert second["kleinstadt-analyse"].status == "unchanged"
    assert second["kleinstadt-analyse"].http_status == 304
    assert second["kleinstadt-umzug"].status == "unchanged" and second["kleinstadt-umzug"].moved
    assert documents["analyse"].bodies == bodies  # a 304, no body
    conditional = [h for _, p, h in kleinstadt.log if p == "/analyse.csv"]
    assert conditional[0]["If-None-Match"] == documents["analyse"].etag
    assert conditional[0]["If-Modified-Since"] == "Mon, 02 Nov 2026 08:00:00 GMT"
    assert sorted((archive / "objects").rglob("*")) == objects
    assert (data / "measurements.csv").read_bytes() == measurements
    assert (data / "documents.csv").read_bytes() == docs


def test_import_makes_documents_rows_and_values_and_picks_up_later(data, tmp_path, documents):
    archive = tmp_path / "archive"
    result = _run(data, archive, import_=True)
    got = _by_id(result)
    doc_id = got["kleinstadt-analyse"].document_id
    assert got["kleinstadt-analyse"].imported, got["kleinstadt-analyse"].import_note
    assert doc_id.startswith("kleinstadt-analyse-")
    docs = pl.read_csv(data / "documents.csv", infer_schema=False)
    row = docs.filter(pl.col("document_id") == doc_id).row(0, named=True)
    assert row["edition_date"] == "2026-07-16"  # "Stand: 16.07.2026"
    assert row["retrieved_date"] == "2026-11-26"  # the fetch
    assert row["supplier_id"] == "1" and row["title"] == "Analyse kleinstadt-analyse"
    values = pl.read_csv(data / "measurements.csv", infer_schema=False).filter(
        pl.col("document_id") == doc_id
    )
    assert sorted(values.select("parameter", "value_text", "sampled_at").rows()) == [
        ("calcium", "101", "2026-07-16"),
        ("nitrat", "24,2", "2026-07-16"),
    ]
    # the moved document is linked where it was read
    umzug = docs.filter(pl.col("document_id") == got["kleinstadt-umzug"].document_id)
    assert umzug["url"][0].endswith("/neu.csv") and umzug["edition_date"][0] == "2026-06-30"
    assert got["seeland-busy"].imported
    # a PDF that is no real PDF is archived, not imported: reported, and the rest went on
    assert got["kleinstadt-bericht"].imported is False
    assert "the PDF is damaged or not a PDF" in got["kleinstadt-bericht"].import_note
    # no edition date stated: left to the operator, reported, the version stays pending
    ohne = got["seeland-ohne-stand"]
    assert ohne.imported is False
    assert "states no edition date" in ohne.import_note and ohne.document_id in ohne.import_note
    assert ohne.document_id not in docs["document_id"].to_list()
    assert Archive(archive).manifest("seeland-ohne-stand").latest.import_state == "pending"
    report = format_run(result)
    assert "seeland-ohne-stand  not imported: the document states no edition date" in report
    assert "Imported 3 of 5 version(s)" in report
    assert check(data)[1].height == 0  # the data directory is valid

    # The operator adds the documents row; the next run imports the version, fetching nothing.
    with (data / "documents.csv").open("a", encoding="utf-8") as fh:
        fh.write(
            f"{ohne.document_id},2,Werte Seeland Ost,http://x.example/o.csv,2026-10-01,2026-11-26\n"
        )
    again = _by_id(_run(data, archive, DAY + dt.timedelta(days=1), import_=True))
    assert again["seeland-ohne-stand"].status == "unchanged"
    assert again["seeland-ohne-stand"].imported, again["seeland-ohne-stand"].import_note
    assert again["kleinstadt-analyse"].imported is None  # already imported, nothing to do
    rows = pl.read_csv(data / "measurements.csv", infer_schema=False)
    assert rows.filter(pl.col("document_id") == ohne.document_id)["sampled_at"].to_list() == [
        "2026-10-01"
    ]

    # A new edition: changed, a new documents row, new values beside the old ones.
    documents["analyse"].set(ANALYSE_2)
    third = _by_id(_run(data, archive, DAY + dt.timedelta(days=2), import_=True))
    assert third["kleinstadt-analyse"].status == "changed" and third["kleinstadt-analyse"].imported
    new_doc = third["kleinstadt-analyse"].document_id
    assert new_doc != doc_id
    rows = pl.read_csv(data / "measurements.csv", infer_schema=False)
    assert rows.filter(pl.col("document_id") == new_doc).filter(pl.col("parameter") == "nitrat")[
        "value_text"
    ].to_list() == ["25,9"]
    assert len(Archive(archive).manifest("kleinstadt-analyse").versions) == 2


def test_a_broken_register_stops_the_run_before_any_request(data, tmp_path, kleinstadt):
    (data / "zones.csv").write_text(
        (data / "zones.csv").read_text(encoding="utf-8") + "99,7,Kaputt,,\n", encoding="utf-8"
    )
    before = {p.name: p.read_bytes() for p in data.iterdir() if p.is_file()}
    with pytest.raises(SourceDataError):
        _run(data, tmp_path / "archive", import_=True)
    assert kleinstadt.log == []
    assert {p.name: p.read_bytes() for p in data.iterdir() if p.is_file()} == before


def test_an_import_the_contract_refuses_writes_nothing_and_is_tried_again(data, tmp_path):
    # A measurements row with an unknown parameter: the register is fine, so everything is
    # fetched and archived, but no import may write into a data directory that breaks the
    # contract. Once it is repaired, the next run imports what waited, without fetching it.
    good = (data / "measurements.csv").read_bytes()
    (data / "measurements.csv").write_bytes(good + b"11,unbekannt,2026-03-10,1,mg/l,wk-2026,\n")
    before = {
        p.name: p.read_bytes() for p in data.iterdir() if p.is_file() and p.name != "documents.csv"
    }
    documents_before = pl.read_csv(data / "documents.csv", infer_schema=False).height
    archive = tmp_path / "archive"
    got = _by_id(_run(data, archive, import_=True))
    assert got["kleinstadt-analyse"].status == "new"
    assert got["kleinstadt-analyse"].imported is False
    assert "breaks the contract; nothing was written" in got["kleinstadt-analyse"].import_note
    assert "unknown_parameter" in got["kleinstadt-analyse"].import_note
    after = {
        p.name: p.read_bytes() for p in data.iterdir() if p.is_file() and p.name != "documents.csv"
    }
    assert after == before
    docs = pl.read_csv(data / "documents.csv", infer_schema=False)
    assert docs.height == documents_before  # no documents row without its values
    assert not [p for p in data.iterdir() if p.name.startswith(".trinkwasser")]  # no staging left
    assert Archive(archive).manifest("kleinstadt-analyse").latest.import_state == "pending"

    (data / "measurements.csv").write_bytes(good)
    again = _by_id(_run(data, archive, DAY + dt.timedelta(days=1), import_=True))
    assert again["kleinstadt-analyse"].status == "unchanged"
    assert again["kleinstadt-analyse"].imported, again["kleinstadt-analyse"].import_note
    docs = pl.read_csv(data / "documents.csv", infer_schema=False)
    row = docs.filter(pl.col("document_id") == again["kleinstadt-analyse"].document_id)
    assert row["retrieved_date"].to_list() == ["2026-11-26"]  # the day it was fetched


def test_links_that_no_longer_answer_are_marked_and_shown(data, tmp_path, kleinstadt):
    archive = tmp_path / "archive"
    result = _run(data, archive)
    assert result.links_written
    docs = pl.read_csv(data / "documents.csv", infer_schema=False)
    gone = dict(zip(docs["document_id"], docs["link_gone_since"], strict=True))
    assert gone["wk-2025"] == "2026-11-26" and gone["wk-2026"] is None
    # still gone the next day: the first day is kept
    _run(data, archive, DAY + dt.timedelta(days=1))
    docs = pl.read_csv(data / "documents.csv", infer_schema=False)
    assert dict(zip(docs["document_id"], docs["link_gone_since"], strict=True))["wk-2025"] == (
        "2026-11-26"
    )
    out = tmp_path / "build"
    build(data, out, dt.date(2026, 11, 27), Config(), force=True)
    supplier = json.loads((out / "_data/v1/suppliers/1.json").read_text(encoding="utf-8"))
    by_id = {d["document_id"]: d for d in supplier["documents"]}
    assert by_id["wk-2025"]["link_gone_since"] == "2026-11-26"
    assert by_id["wk-2026"]["link_gone_since"] is None
    page = (out / "versorger/1/index.html").read_text(encoding="utf-8")
    assert "Der Link antwortet seit dem 26.11.2026 nicht mehr." in page
    # It answers again: the mark goes.
    kleinstadt.routes["/weg.csv"] = _static(200, b"wieder da")
    _run(data, archive, DAY + dt.timedelta(days=2))
    docs = pl.read_csv(data / "documents.csv", infer_schema=False)
    assert dict(zip(docs["document_id"], docs["link_gone_since"], strict=True))["wk-2025"] is None


def test_fetch_lists_suppliers_without_a_recent_publication(data, tmp_path):
    # The newest documents: supplier 1 2026-06-30, supplier 2 2026-05-15. A run on
    # 2027-06-01 with 12 months: supplier 2 is stale (nothing since 2026-06-01).
    when = dt.datetime(2027, 6, 1, tzinfo=dt.UTC)
    (data / "sources.csv").write_text("source_id,supplier_id,zone_id,url\n", encoding="utf-8")
    result = _run(data, tmp_path / "archive", when)
    assert [(s.supplier_id, s.newest, s.registered) for s in result.stale] == [
        (2, dt.date(2026, 5, 15), False)
    ]
    report = format_run(result)
    assert (
        "1 supplier(s) without a publication in the last 12 month(s) (none since 2026-06-01)"
        in (report)
    )
    assert "Zweckverband Seeland (Testdaten): newest 2026-05-15; no source registered" in report
    six = run(
        data,
        tmp_path / "archive",
        Config(publication_cadence_months=6),
        RULES,
        clock=lambda: dt.datetime(2026, 12, 1, tzinfo=dt.UTC),
    )
    assert [s.supplier_id for s in six.stale] == [2]


def test_the_command_reports_and_exits_0_whatever_the_servers_answer(data, tmp_path):
    args = ["fetch", "--data", str(data), "--archive", str(tmp_path / "a"), "--delay", "0.05"]
    args += ["--timeout", "1", "--max-size", "0.02", "--retries", "1", "--import"]
    args += ["--allow-private-addresses"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "Fetched 12 source(s)" in result.output
    assert "kleinstadt-weg" in result.output and "HTTP 404" in result.output
    assert "Imported 3 of 5 version(s)" in result.output


def test_the_command_exits_1_on_local_errors(data, tmp_path):
    (data / "sources.csv").write_text(
        "source_id,supplier_id,zone_id,url\n"
        "a,1,11,ftp://x.example/a.csv\n"
        "a,1,11,https://x.example/b.csv\n"
        "b,9,11,https://x.example/c.csv\n"
        "c,1,77,https://x.example/d.csv\n"
        "d,2,11,https://x.example/e.csv\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["fetch", "--data", str(data), "--archive", str(tmp_path)])
    assert result.exit_code == 1
    assert "sources, row 1, column url" in result.output and "malformed_url" in result.output
    assert "sources, row 2, column source_id" in result.output and "duplicate_key" in result.output
    assert "sources, row 3, column supplier_id" in result.output
    assert "sources, row 4, column zone_id" in result.output
    assert "sources, row 5" in result.output  # zone 11 is not supplier 2's
    validate = CliRunner().invoke(cli, ["validate", str(data)])
    assert validate.exit_code == 1 and "sources, row 1, column url" in validate.output
    # an archive that cannot be written is a local error too
    blocker = tmp_path / "file"
    blocker.write_text("x")
    (data / "sources.csv").write_text("source_id,supplier_id,zone_id,url\n", encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["fetch", "--data", str(data), "--archive", str(blocker / "archiv")]
    )
    assert result.exit_code == 1 and "Error:" in result.output


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Stand: 16.07.2021", dt.date(2021, 7, 16)),
        ("Trinkwasseranalyse (Stand 31.12.2026)", dt.date(2026, 12, 31)),
        ("Stand vom 1.3.2025; Stand: 2024-05-02", dt.date(2025, 3, 1)),
        ("Stand: 31.02.2025", None),
        ("Probe vom 16.07.2021", None),
        ("", None),
    ],
)
def test_edition_dates_are_read_only_after_stand(text, expected):
    assert edition_date(text) == expected


def test_retry_after_takes_seconds_and_http_dates():
    now = dt.datetime(2026, 11, 26, 6, 0, tzinfo=dt.UTC)
    assert retry_after("120") == 120.0
    assert retry_after("Thu, 26 Nov 2026 06:01:00 GMT", now) == 60.0
    assert retry_after("bald") is None and retry_after(None) is None


def test_the_recipe_reaches_the_import(data, tmp_path, kleinstadt):
    # sample_point and encoding go to `trinkwasser import`, and so does the table choice:
    # a CSV table has one table only, so table 2 is refused and the version waits.
    (data / "sources.csv").write_text(
        "source_id,supplier_id,zone_id,url,sample_point,encoding,table\n"
        f"punkt,1,11,{kleinstadt.url}/analyse.csv,Hochbehälter Nord,utf-8,\n"
        f"tabelle,1,12,{kleinstadt.url}/neu.csv,,,2\n",
        encoding="utf-8",
    )
    got = _by_id(_run(data, tmp_path / "archive", import_=True))
    assert got["punkt"].imported, got["punkt"].import_note
    rows = pl.read_csv(data / "measurements.csv", infer_schema=False)
    points = rows.filter(pl.col("document_id") == got["punkt"].document_id)["sample_point"]
    assert points.unique().to_list() == ["Hochbehälter Nord"]
    assert got["tabelle"].imported is False
    assert "there is no table 2 (the document has 1)" in got["tabelle"].import_note


def test_an_excel_source_is_imported_from_its_sheet(data, tmp_path, kleinstadt):
    import xlsxwriter

    workbook = tmp_path / "werte.xlsx"
    book = xlsxwriter.Workbook(str(workbook))
    book.add_worksheet("Deckblatt").write_string(0, 0, "Trinkwasserwerte")
    sheet = book.add_worksheet("Analyse")
    sheet.write_string(0, 0, "Trinkwasserwerte Kleinstadt Süd, Stand: 01.09.2026")
    sheet.write_row(2, 0, ["Parameter", "Einheit", "Messwert"])
    sheet.write_row(3, 0, ["Nitrat", "mg/l", "17,5"])
    book.close()
    kind = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    kleinstadt.routes["/werte"] = Document("", kind)
    kleinstadt.routes["/werte"].body = workbook.read_bytes()
    (data / "sources.csv").write_text(
        f"source_id,supplier_id,zone_id,url,sheet\nexcel,1,13,{kleinstadt.url}/werte,Analyse\n",
        encoding="utf-8",
    )
    got = _by_id(_run(data, tmp_path / "archive", import_=True))["excel"]
    assert got.status == "new" and got.imported, got.import_note
    docs = pl.read_csv(data / "documents.csv", infer_schema=False)
    assert docs.filter(pl.col("document_id") == got.document_id)["edition_date"].to_list() == [
        "2026-09-01"
    ]
    rows = pl.read_csv(data / "measurements.csv", infer_schema=False)
    mine = rows.filter(pl.col("document_id") == got.document_id)
    assert mine.select("zone_id", "parameter", "value_text").rows() == [("13", "nitrat", "17,5")]


def test_a_host_whose_robots_txt_fails_is_left_alone_and_long_waits_are_refused(
    data, tmp_path, kleinstadt
):
    blocked = Site({"/robots.txt": _static(503, b"Wartung"), "/werte.csv": Document(SEELAND)})
    for site in _serve(blocked):
        kleinstadt.routes["/spaeter.csv"] = _static(503, b"", Retry_After="3600")
        (data / "sources.csv").write_text(
            "source_id,supplier_id,zone_id,url\n"
            f"gesperrt,2,21,{site.url}/werte.csv\n"
            f"spaeter,1,11,{kleinstadt.url}/spaeter.csv\n",
            encoding="utf-8",
        )
        got = _by_id(_run(data, tmp_path / "archive"))
        assert got["gesperrt"].status == "failed" and not got["gesperrt"].gone
        assert "robots.txt" in got["gesperrt"].reason and "answers 503" in got["gesperrt"].reason
        assert site.paths() == ["/robots.txt"]  # nothing else was asked of that host
        assert got["spaeter"].reason == (
            "HTTP 503, asks to wait 3600 s (Retry-After), more than 5 s"
        )
        assert kleinstadt.paths().count("/spaeter.csv") == 1


def test_a_version_imported_by_hand_keeps_its_documents_row(data, tmp_path, kleinstadt):
    # "Adding a supplier": the table imported by hand first (with its own document id and
    # sample date), then registered; the fetched version is the same publication.
    url = kleinstadt.url + "/analyse.csv"
    with (data / "documents.csv").open("a", encoding="utf-8") as fh:
        fh.write(f"wk-analyse-hand,1,Analyse Kleinstadt Mitte,{url},2026-07-16,2026-07-20\n")
    saved = tmp_path / "analyse.csv"
    saved.write_text(ANALYSE, encoding="utf-8")
    by_hand = CliRunner().invoke(
        cli,
        ["import", str(saved), "--data", str(data), "--zone", "11", "--document",
         "wk-analyse-hand", "--sampled-at", "2026-07-10"],
    )  # fmt: skip
    assert by_hand.exit_code == 0, by_hand.output
    got = _by_id(_run(data, tmp_path / "archive", import_=True))["kleinstadt-analyse"]
    assert got.imported, got.import_note
    assert got.document_id == "wk-analyse-hand"
    assert got.import_note == "0 value(s) appended; 2 present"
    docs = pl.read_csv(data / "documents.csv", infer_schema=False)
    assert docs.filter(pl.col("url") == url)["document_id"].to_list() == ["wk-analyse-hand"]
    rows = pl.read_csv(data / "measurements.csv", infer_schema=False)
    from_it = rows.filter(pl.col("document_id").str.starts_with("kleinstadt-analyse"))
    assert from_it.height == 0
    assert rows.filter(pl.col("document_id") == "wk-analyse-hand").height == 2


def test_a_value_waiting_for_a_decision_is_named_and_taken_the_day_after(data, tmp_path, documents):
    documents["analyse"].set(ANALYSE + "PFAS-Summe;µg/l;0,05\n")
    archive = tmp_path / "archive"
    first = _run(data, archive, import_=True)
    got = _by_id(first)["kleinstadt-analyse"]
    assert got.imported and "1 wait for a decision" in got.import_note
    assert [(w.name, w.unit, w.values, w.suggestions[:2]) for w in got.waiting] == [
        ("PFAS-Summe", "µg/l", 1, ("pfas_summe_4", "pfas_summe_20"))
    ]
    report = format_run(first)
    command = f"trinkwasser parameters decide PFAS-Summe 'µg/l' CODE --data {data}"
    assert "Waiting for a decision: 1 value(s) under 1 name(s)." in report
    assert f"    settle it: {command}" in report
    assert Archive(archive).manifest("kleinstadt-analyse").latest.waiting == 1

    decided = CliRunner().invoke(
        cli, ["parameters", "decide", "PFAS-Summe", "µg/l", "pfas_summe_20", "--data", str(data)]
    )
    assert decided.exit_code == 0, decided.output
    next_day = _by_id(_run(data, archive, DAY + dt.timedelta(days=1), import_=True))
    again = next_day["kleinstadt-analyse"]
    assert again.status == "unchanged" and again.imported, again.import_note
    assert again.import_note == "1 value(s) appended; 2 present" and again.waiting == []
    rows = pl.read_csv(data / "measurements.csv", infer_schema=False)
    pfas = rows.filter(pl.col("document_id") == again.document_id).filter(
        pl.col("parameter") == "pfas_summe_20"
    )
    assert pfas["value_text"].to_list() == ["0,05"]
    assert pl.read_csv(data / "undecided.csv").height == 0
    third = _by_id(_run(data, archive, DAY + dt.timedelta(days=2), import_=True))
    assert third["kleinstadt-analyse"].imported is None  # nothing waits any more


def test_a_missing_register_is_a_warning_naming_the_unwatched_suppliers(data, tmp_path):
    (data / "sources.csv").unlink()
    result = CliRunner().invoke(
        cli, ["fetch", "--data", str(data), "--archive", str(tmp_path / "a")]
    )
    assert result.exit_code == 0, result.output
    assert "Fetched 0 source(s)" in result.stdout
    assert (
        f"Warning: no sources table in {data}: nothing is watched, no publication was fetched. "
        "Suppliers without a registered source: 1 Wasserwerke Kleinstadt (Testdaten), "
        "2 Zweckverband Seeland (Testdaten), 3 Prüfverband (Testdaten)."
    ) in result.stdout
    assert "Every supplier published" not in result.stdout
    assert "Warning: no sources table" in result.stderr


def test_the_json_report_follows_its_schema(data, tmp_path, documents):
    documents["analyse"].set(ANALYSE + "PFAS-Summe;µg/l;0,05\n")
    args = ["fetch", "--data", str(data), "--archive", str(tmp_path / "a"), "--delay", "0.05"]
    args += ["--timeout", "1", "--max-size", "0.02", "--retries", "1", "--import", "--json"]
    args += ["--allow-private-addresses"]  # the suppliers' servers are on loopback here
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    report = check_report(result.stdout, "trinkwasser.fetch/1")
    by_id = {s["source_id"]: s for s in report["sources"]}
    assert len(by_id) == 12 and report["registered"] is True
    assert by_id["kleinstadt-weg"]["status"] == "failed"
    assert by_id["kleinstadt-weg"]["http_status"] == 404 and by_id["kleinstadt-weg"]["gone"]
    analyse = by_id["kleinstadt-analyse"]
    assert analyse["status"] == "new" and analyse["imported"] is True
    assert [w["name"] for w in analyse["waiting"]] == ["PFAS-Summe"]
    assert report["waiting_for_decision"] == 1
    assert report["unwatched"] == [{"supplier_id": 3, "name": "Prüfverband (Testdaten)"}]
    assert report["warnings"] == []

    (data / "sources.csv").unlink()
    bare = CliRunner().invoke(
        cli, ["fetch", "--data", str(data), "--archive", str(tmp_path / "b"), "--json"]
    )
    assert bare.exit_code == 0, bare.output
    empty = check_report(bare.stdout, "trinkwasser.fetch/1")
    assert empty["registered"] is False and empty["sources"] == []
    assert [s["supplier_id"] for s in empty["unwatched"]] == [1, 2, 3]
    assert empty["warnings"][0].startswith(f"no sources table in {data}: nothing is watched")

    (data / "zones.csv").write_text("zone_id,supplier_id,name\n11,1,\n", encoding="utf-8")
    local = CliRunner().invoke(
        cli, ["fetch", "--data", str(data), "--archive", str(tmp_path / "c"), "--json"]
    )
    assert local.exit_code == 1
    error = check_report(local.stdout, "trinkwasser.error/1")
    assert ("zones", 1, "empty_required") in {
        (p["table"], p["row"], p["rule"]) for p in error["problems"]
    }
