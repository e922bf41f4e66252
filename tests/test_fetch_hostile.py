"""`trinkwasser fetch` against hostile servers on loopback.

Bombs, private addresses, sources that break the client or the parsers, two runs at once.

Every server is a real HTTP server on 127.0.0.1. Where a test needs a host that counts as
public (to be redirected from it to a private one), a resolver names it with a public
address and the network backend under the guard connects that address to the loopback
server: the guard, the policy and the connection are the production ones, and no test ever
connects to anything but loopback (the backend fails a test that would).
"""

from __future__ import annotations

import asyncio
import dataclasses
import gzip
import ipaddress
import os
import re
import shutil
import struct
import subprocess
import sys
import threading
import tracemalloc
import zlib
from collections.abc import Iterable, Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import brotli
import httpcore
import polars as pl
import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.config import load_config
from generator.fetch.addresses import (
    AddressPolicy,
    AddressRefused,
    GuardedTransport,
    system_resolver,
)
from generator.fetch.archive import Archive
from generator.fetch.polite import Answer, PoliteClient
from generator.fetch.politeness import Politeness
from generator.fetch.report import format_run
from generator.fetch.run import run
from generator.load import check
from generator.locking import exclusive
from generator.retries import retry_after
from tests.fetch_helpers import ANALYSE, CONFIG, DAY, RULES, Document, Site
from tests.fetch_helpers import serve as _serve
from tests.fetch_helpers import static as _static
from tests.helpers import GOLDEN_INPUT

PUBLIC = "93.184.215.14"
"""A public address the resolver gives the test's supplier host; connected to loopback."""
SUPPLIER = "versorger.test"
DEFAULT = dataclasses.replace(RULES, allow_private=False)
BOMB_SIZE = 64 * 1024 * 1024
"""What each bomb inflates to: 64 MiB of zeros, from about 65 kB on the wire."""
BOMB_RULES = dataclasses.replace(RULES, max_bytes=200_000)
"""A cap above the bombs' size on the wire: only the decoded bytes can break it."""


# ---------------------------------------------------------------------------- helpers


class LoopbackOnly(httpcore.AsyncNetworkBackend):
    """Connect the public test address to the loopback server; fail on any other address."""

    def __init__(self) -> None:
        self.inner = httpcore.AnyIOBackend()
        self.connects: list[str] = []

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        self.connects.append(host)
        if host != PUBLIC:
            raise AssertionError(f"the guard let a connection to {host} through")
        return await self.inner.connect_tcp("127.0.0.1", port, timeout, None, socket_options)

    async def connect_unix_socket(self, *args: object, **kwargs: object):  # type: ignore[override]
        raise AssertionError("no socket files")

    async def sleep(self, seconds: float) -> None:
        await self.inner.sleep(seconds)


def _resolver(answers: dict[str, list[list[str]]]):
    """Return a resolver: a name's answers in turn (the last repeats), others the system's."""
    asked: dict[str, int] = {}

    async def resolve(host: str, port: int) -> list[str]:
        if host not in answers:
            return await system_resolver(host, port)
        turn = asked.get(host, 0)
        asked[host] = turn + 1
        return answers[host][min(turn, len(answers[host]) - 1)]

    return resolve


def _guarded(allow_private: bool = False, answers: dict[str, list[list[str]]] | None = None):
    policy = AddressPolicy(allow_private, _resolver(answers or {SUPPLIER: [[PUBLIC]]}))
    backend = LoopbackOnly()
    return policy, backend, GuardedTransport(policy, backend)


def _fetch(url: str, rules: Politeness = RULES, transport=None, policy=None) -> Answer:
    async def one() -> Answer:
        async with PoliteClient(CONFIG, rules, transport, policy) as client:
            return await client.fetch(url)

    return asyncio.run(one())


@pytest.fixture(scope="module")
def bombs() -> dict[str, tuple[bytes, str]]:
    # One raw deflate stream of zeros, framed as gzip (RFC 1952) and as zlib (RFC 1950).
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = bytes(1024 * 1024)
    raw = b"".join(packer.compress(block) for _ in range(BOMB_SIZE // len(block)))
    raw += packer.flush()
    crc = 0
    for _ in range(BOMB_SIZE // len(block)):
        crc = zlib.crc32(block, crc)
    gzipped = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff" + raw
    gzipped += struct.pack("<II", crc, BOMB_SIZE & 0xFFFFFFFF)
    adler = zlib.adler32(bytes(0))
    for _ in range(BOMB_SIZE // len(block)):
        adler = zlib.adler32(block, adler)
    wrapped = b"\x78\xda" + raw + struct.pack(">I", adler)
    return {
        "gzip": (gzipped, "gzip"),
        "deflate": (raw, "deflate"),
        "zlib": (wrapped, "deflate"),
        "double": (gzip.compress(gzipped), "gzip, gzip"),
        "br": (brotli.compress(bytes(BOMB_SIZE // 8), quality=1), "br"),
    }


@pytest.fixture
def site(bombs) -> Iterator[Site]:
    coded = ANALYSE.encode()
    routes = {
        "/robots.txt": _static(404),
        "/analyse.csv": Document(ANALYSE),
        "/gzip.csv": _static(200, gzip.compress(coded), Content_Encoding="gzip"),
        "/zlib.csv": _static(200, zlib.compress(coded), Content_Encoding="deflate"),
        "/roh.csv": _static(200, _raw_deflate(coded), Content_Encoding="deflate"),
    }
    for name, (body, coding) in bombs.items():
        routes[f"/bombe-{name}.csv"] = _static(200, body, Content_Encoding=coding)
    yield from _serve(Site(routes))


def _raw_deflate(data: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush()


# ---------------------------------------------------------------------------- 1. codings


def test_gzip_and_deflate_are_decoded_and_say_so(site):
    for path in ("/gzip.csv", "/zlib.csv", "/roh.csv", "/analyse.csv"):
        answer = _fetch(site.url + path)
        assert answer.error is None and answer.body == ANALYSE.encode(), path
    assert {h["Accept-Encoding"] for _, _, h in site.log} == {"gzip, deflate"}


@pytest.mark.parametrize("name", ["gzip", "deflate", "zlib"])
def test_a_bomb_is_stopped_at_the_cap_in_kilobytes(site, name):
    # 64 MiB behind about 65 kB: the cap (200,000 bytes) counts the decoded bytes as they
    # come, so no more than the cap and one piece (64 KiB) is ever made.
    tracemalloc.start()
    try:
        answer = _fetch(f"{site.url}/bombe-{name}.csv", BOMB_RULES)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert answer.error == "larger than the size cap (200000 bytes)"
    assert answer.body is None and answer.status == 200 and not answer.gone
    assert peak < 1_000_000, peak


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("br", "Content-Encoding br is not accepted (gzip, deflate or none were asked for)"),
        (
            "double",
            "encoded in 2 layers (Content-Encoding: gzip, gzip); one layer of gzip or "
            "deflate is accepted",
        ),
    ],
)
def test_other_codings_and_layers_fail_the_source_before_any_decoding(site, name, reason):
    tracemalloc.start()
    try:
        answer = _fetch(f"{site.url}/bombe-{name}.csv", BOMB_RULES)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert answer.error == reason and answer.body is None
    assert peak < 1_000_000, peak


def test_two_coding_headers_are_two_layers(site):
    def twice(h: BaseHTTPRequestHandler) -> None:
        body = gzip.compress(gzip.compress(b"x"))
        h.send_response(200)
        h.send_header("Content-Encoding", "gzip")
        h.send_header("Content-Encoding", "gzip")
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    site.routes["/zweimal.csv"] = twice
    answer = _fetch(site.url + "/zweimal.csv")
    assert answer.error is not None and answer.error.startswith("encoded in 2 layers")


def test_a_damaged_gzip_body_fails_the_source(site):
    site.routes["/kaputt.csv"] = _static(200, b"\x1f\x8b\x08\x00garbage", Content_Encoding="gzip")
    answer = _fetch(site.url + "/kaputt.csv")
    assert answer.error is not None and "the gzip coding is damaged" in answer.error


# ---------------------------------------------------------------------------- 2. addresses


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.1", "loopback"),
        ("127.8.9.10", "loopback"),
        ("::1", "loopback"),
        ("::ffff:127.0.0.1", "loopback"),
        ("169.254.169.254", "link-local"),
        ("fe80::1", "link-local"),
        ("10.1.2.3", "private"),
        ("172.16.0.1", "private"),
        ("192.168.178.1", "private"),
        ("fd12:3456::1", "private"),
        ("100.64.0.1", "shared (CGNAT)"),
        ("224.0.0.251", "multicast"),
        ("ff02::1", "multicast"),
        ("0.0.0.0", "unspecified"),
        ("::", "unspecified"),
        ("2002:c0a8:0101::1", "private"),  # 6to4 of 192.168.1.1
    ],
)
def test_the_policy_names_what_it_refuses(address, kind):
    policy = AddressPolicy()
    refusal = re.escape(f"is {kind}; only public addresses are fetched")
    with pytest.raises(AddressRefused, match=refusal):
        asyncio.run(policy.addresses(address, 80))
    allowed = asyncio.run(AddressPolicy(allow_private=True).addresses(address, 80))
    assert allowed == [str(ipaddress.ip_address(address))]
    assert asyncio.run(policy.addresses(PUBLIC, 80)) == [PUBLIC]


def _register(data: Path, rows: list[tuple[str, str]], zones: dict[str, int] | None = None) -> None:
    lines = ["source_id,supplier_id,zone_id,url,title"]
    zone = zones or {}
    lines += [f"{source_id},1,{zone.get(source_id, 11)},{url},Analyse" for source_id, url in rows]
    (data / "sources.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def data(tmp_path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(GOLDEN_INPUT, target)
    return target


def test_private_addresses_are_refused_directly_and_through_redirects(data, tmp_path, site):
    port = site.url.rsplit(":", 1)[1]
    secret = f"{port}/geheim.csv"
    site.routes["/geheim.csv"] = _static(200, b"nur intern")
    targets = {
        "loopback": f"http://127.0.0.1:{secret}",
        "ipv6": f"http://[::1]:{secret}",
        "localhost": f"http://localhost:{secret}",
        "integer": f"http://2130706433:{secret}",
        "credentials": f"http://user:pw@127.0.0.1:{secret}",
        "metadata": "http://169.254.169.254/latest/meta-data/",
    }
    redirects = {**targets, "schemeless": f"//127.0.0.1:{secret}"}
    for name, location in redirects.items():
        site.routes[f"/zu-{name}"] = _static(302, Location=location)
    supplier = f"http://{SUPPLIER}:{port}"
    rows = [(f"direkt-{name}", url) for name, url in targets.items()]
    rows += [(f"umweg-{name}", f"{supplier}/zu-{name}") for name in redirects]
    rows.append(("oeffentlich", f"{supplier}/analyse.csv"))
    _register(data, rows)
    policy, backend, transport = _guarded()
    result = run(
        data,
        tmp_path / "archive",
        CONFIG,
        DEFAULT,
        clock=lambda: DAY,
        transport=transport,
        policy=policy,
    )
    got = {r.source_id: r for r in result.sources}
    expected = {
        "loopback": "the address 127.0.0.1 is loopback",
        "ipv6": "the address ::1 is loopback",
        "localhost": "the address localhost (127.0.0.1) is loopback",
        "integer": "the address 2130706433 (127.0.0.1) is loopback",
        "credentials": f"the address http://…@127.0.0.1:{secret} carries credentials",
        "metadata": "the address 169.254.169.254 is link-local",
        "schemeless": "the address 127.0.0.1 is loopback",
    }
    for name, reason in expected.items():
        for way in ("direkt", "umweg"):
            source = got.get(f"{way}-{name}")
            if source is None:
                continue  # a register row without a scheme is refused by validate (below)
            assert source.status == "failed" and source.reason.startswith(reason), source
            assert not source.gone  # a refusal says nothing about the link
            if "credentials" not in reason:
                assert source.reason.endswith(
                    "only public addresses are fetched (--allow-private-addresses or "
                    "[fetch] allow_private_addresses allows them)"
                )
    assert got["oeffentlich"].status == "new"
    # The refused addresses were never asked for, and nothing but the public test address
    # (the loopback server behind it) was ever connected to.
    assert "/geheim.csv" not in site.paths()
    assert set(backend.connects) == {PUBLIC}
    assert sorted(p for p in site.paths() if p.startswith("/zu-")) == sorted(
        f"/zu-{n}" for n in redirects
    )
    report = format_run(result)
    line = next(x for x in report.splitlines() if x.split()[0] == "direkt-metadata")
    assert line.split()[1] == "failed" and "the address 169.254.169.254 is link-local" in line
    # A register row without a scheme never gets that far: the register is refused.
    _register(data, [("schemeless", f"//127.0.0.1:{secret}")])
    problems = check(data)[1]
    assert problems.filter(problems["table"] == "sources")["rule"].to_list() == ["malformed_url"]


def test_a_name_that_rebinds_to_loopback_is_refused_where_it_connects(site):
    # The first answer is public (the check before the request passes), the second, at the
    # connection, is loopback: the connection is refused, nothing is asked for.
    port = site.url.rsplit(":", 1)[1]
    policy, backend, transport = _guarded(answers={SUPPLIER: [[PUBLIC], ["127.0.0.1"]]})
    rules = dataclasses.replace(DEFAULT, retries=0)
    answer = _fetch(f"http://{SUPPLIER}:{port}/analyse.csv", rules, transport, policy)
    assert answer.error is not None
    assert "the address versorger.test (127.0.0.1) is loopback" in answer.error
    assert backend.connects == [] and site.log == []


def test_private_addresses_are_allowed_by_the_flag_or_the_setting(data, tmp_path, site):
    _register(data, [("lokal", f"{site.url}/analyse.csv")])
    base = ["fetch", "--data", str(data), "--delay", "0.05", "--timeout", "2"]
    refused = CliRunner().invoke(cli, [*base, "--archive", str(tmp_path / "a")])
    assert refused.exit_code == 0, refused.output
    assert "lokal  failed     the address 127.0.0.1 is loopback" in refused.output
    assert site.paths() == []
    flagged = CliRunner().invoke(
        cli, [*base, "--archive", str(tmp_path / "b"), "--allow-private-addresses"]
    )
    assert "lokal  new " in flagged.output, flagged.output
    config = tmp_path / "trinkwasser.toml"
    config.write_text("[fetch]\nallow_private_addresses = true\n", encoding="utf-8")
    assert load_config(config).allow_private_addresses is True
    configured = CliRunner().invoke(
        cli, [*base, "--archive", str(tmp_path / "c"), "--config", str(config)]
    )
    assert "lokal  new " in configured.output, configured.output
    config.write_text("[fetch]\nallow_private_addresses = 'ja'\nproxy = 1\n", encoding="utf-8")
    broken = CliRunner().invoke(
        cli, [*base, "--archive", str(tmp_path / "d"), "--config", str(config)]
    )
    assert broken.exit_code == 1
    assert "fetch.allow_private_addresses: must be true or false, got 'ja'" in broken.output
    assert "fetch.proxy: unknown setting" in broken.output


# ---------------------------------------------------------------------------- 3. one source


EMPTY_ROW_PAGE = """<html><body><h1>Trinkwasseranalyse, Stand: 01.10.2026</h1>
<table><tr></tr></table>
<table><tr><th>Parameter</th><th>Einheit</th><th>Messwert</th></tr>
<tr><td>Nitrat</td><td>mg/l</td><td>7,5</td></tr></table></body></html>"""


def test_a_hostile_source_fails_alone_and_the_good_one_after_it_is_imported(
    data, tmp_path, site, monkeypatch
):
    # The register is read in the order of the ids: every hostile source comes before the
    # good one, on the same host (so one after another, in that order).
    site.routes["/hochgestellt.csv"] = _static(503, b"", Retry_After="²")
    site.routes["/daten.csv"] = _static(302, Location="data:text/csv;base64,Tml0cmF0")
    site.routes["/ungueltig.csv"] = _static(302, Location="http://[::1/x")
    site.routes["/leerzeile.html"] = Document(EMPTY_ROW_PAGE, "text/html; charset=utf-8")
    site.routes["/parser.csv"] = Document(ANALYSE.replace("24,2", "19"))
    _register(
        data,
        [
            ("a-hochgestellt", f"{site.url}/hochgestellt.csv"),
            ("b-daten", f"{site.url}/daten.csv"),
            ("c-ungueltig", f"{site.url}/ungueltig.csv"),
            ("d-leerzeile", f"{site.url}/leerzeile.html"),
            ("e-parser", f"{site.url}/parser.csv"),
            ("z-gut", f"{site.url}/analyse.csv"),
        ],
    )
    # A parser's own exception, of a kind no reader expects (here polars', as a page with
    # nested tables once raised): the safety net turns it into the source's failure.
    from generator.fetch import reimport

    plan = reimport._plan

    def breaking(path, target, recipe):
        if recipe.source_id == "e-parser":
            raise pl.exceptions.ShapeError("lengths do not match")
        return plan(path, target, recipe)

    monkeypatch.setattr(reimport, "_plan", breaking)
    args = ["fetch", "--data", str(data), "--archive", str(tmp_path / "archiv"), "--import"]
    args += ["--delay", "0.05", "--timeout", "2", "--retries", "1", "--allow-private-addresses"]
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    lines = {line.split()[0]: line for line in first.output.splitlines() if line.startswith("  ")}
    assert "failed" in lines["a-hochgestellt"] and "HTTP 503" in lines["a-hochgestellt"]
    assert "failed     an answer with an invalid address: " in lines["b-daten"]
    assert (
        "failed     no answer: RemoteProtocolError: Invalid URL in location" in lines["c-ungueltig"]
    )
    assert "Imported 2 of 3 version(s) waiting for import:" in first.output
    imported = _imports(first.output)
    # The page with a row without cells is read all the same (it broke the reader once).
    assert imported["d-leerzeile"].startswith("document d-leerzeile-")
    assert imported["e-parser"] == (
        "not imported: the document could not be read: ShapeError: lengths do not match"
    )
    assert imported["z-gut"].startswith("document z-gut-")
    rows = pl.read_csv(data / "measurements.csv", infer_schema=False)
    assert rows.filter(pl.col("document_id").str.starts_with("z-gut-"))[
        "value_text"
    ].sort().to_list() == ["101", "24,2"]
    assert Archive(tmp_path / "archiv").manifest("e-parser").latest.import_state == "pending"

    # The next run tries the pending version again, without fetching it again.
    monkeypatch.setattr(reimport, "_plan", plan)
    second = CliRunner().invoke(cli, args)
    assert second.exit_code == 0, second.output
    assert _imports(second.output)["e-parser"].startswith("document e-parser-")
    assert Archive(tmp_path / "archiv").manifest("e-parser").latest.import_state == "imported"
    assert [p for p in site.paths() if p == "/parser.csv"] == ["/parser.csv"] * 2  # 200, 304


def _imports(output: str) -> dict[str, str]:
    """Return the import lines of a report by source id."""
    tail = output.split("waiting for import:\n", 1)[1].splitlines()
    lines = [line.strip().split(None, 1) for line in tail if line.startswith("  ")]
    return {source: what for source, what in lines}


def test_an_unreadable_retry_after_is_no_retry_after():
    assert retry_after("²") is None and retry_after("٣") is None and retry_after("3") == 3.0


# ---------------------------------------------------------------------------- 4. one run


def _fetch_command(data: Path, archive: Path) -> list[str]:
    return [
        sys.executable, "-m", "generator", "fetch", "--data", str(data), "--archive",
        str(archive), "--import", "--allow-private-addresses", "--delay", "0.05",
        "--timeout", "120",
    ]  # fmt: skip


def test_a_second_run_stops_at_once_and_the_first_loses_nothing(data, tmp_path, site):
    # The first run is held inside its first request (the server answers when the test says
    # so); a second run started meanwhile must change nothing and say why.
    arrived, release = threading.Event(), threading.Event()
    slow = Document(ANALYSE.replace("24,2", "31"))

    def held(h: BaseHTTPRequestHandler) -> None:
        arrived.set()
        release.wait(120)
        slow(h)

    site.routes["/langsam.csv"] = held
    _register(
        data,
        [("a-langsam", f"{site.url}/langsam.csv"), ("b-zweite", f"{site.url}/gzip.csv")],
        {"b-zweite": 12},
    )
    archive = tmp_path / "archiv"
    command = _fetch_command(data, archive)
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert arrived.wait(120), "the first run never asked for its document"
        asked = len(site.log)
        before = {p.name: p.read_bytes() for p in data.iterdir() if p.is_file()}
        second = subprocess.run(command, capture_output=True, text=True, timeout=120)
        assert len(site.log) == asked  # the second run asked for nothing
        assert {p.name: p.read_bytes() for p in data.iterdir() if p.is_file()} == before
    finally:
        release.set()
        out, err = first.communicate(timeout=120)
    assert second.returncode == 1, second.stderr
    assert second.stderr.strip() == (
        f"Error: {archive} is in use by another run (trinkwasser fetch or import); this "
        "trinkwasser fetch changed nothing. Run it again when that one has finished."
    )
    assert first.returncode == 0, err
    assert "Imported 2 of 2 version(s)" in out, out
    # Every value of both documents is there once, and each manifest says imported.
    rows = pl.read_csv(data / "measurements.csv", infer_schema=False)
    for source in ("a-langsam", "b-zweite"):
        mine = rows.filter(pl.col("document_id").str.starts_with(f"{source}-"))
        assert mine.height == 2, source
        assert Archive(archive).manifest(source).latest.import_state == "imported"
    # The lock went with the first run: a third one runs, and finds nothing new to import.
    third = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert third.returncode == 0, third.stderr
    assert "2 unchanged" in third.stdout and "waiting for import" not in third.stdout
    assert sorted(p.name for p in data.iterdir() if p.name.startswith(".")) == []
    assert pl.read_csv(data / "measurements.csv", infer_schema=False).height == rows.height


def test_an_import_waits_for_no_one_while_fetch_holds_the_data(data, tmp_path):
    table = tmp_path / "werte.csv"
    table.write_text("Parameter;Einheit;Messwert\nNitrat;mg/l;3\n", encoding="utf-8")
    args = ["import", str(table), "--data", str(data), "--zone", "11", "--document", "wk-2026"]
    args += ["--sampled-at", "2026-06-30"]
    before = (data / "measurements.csv").read_bytes()
    with exclusive(data, "trinkwasser fetch"):
        busy = CliRunner().invoke(cli, args)
        assert busy.exit_code == 1
        assert f"{data} is in use by another run (trinkwasser fetch or import); this " in (
            busy.output
        )
        assert (data / "measurements.csv").read_bytes() == before
        # A dry run writes nothing and needs no lock.
        dry = CliRunner().invoke(cli, [*args, "--dry-run"])
        assert dry.exit_code == 0, dry.output
    assert CliRunner().invoke(cli, args).exit_code == 0
    assert (data / "measurements.csv").read_bytes() != before


def test_staging_folders_of_killed_runs_are_swept(data, tmp_path, site):
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead = gone.stdout.strip()
    left = [data / f".trinkwasser-fetch-{dead}-x1y2", data / f".trinkwasser-import-{dead}-z3"]
    mine = data / f".trinkwasser-fetch-{os.getpid()}-lebt"  # a running process's: kept
    for folder in (*left, mine):
        folder.mkdir()
        (folder / "measurements.csv").write_text("halb", encoding="utf-8")
    _register(data, [("gut", f"{site.url}/analyse.csv")])
    result = run(data, tmp_path / "archiv", CONFIG, RULES, import_=True, clock=lambda: DAY)
    assert result.swept == left
    assert not any(folder.exists() for folder in left) and mine.is_dir()
    report = format_run(result)
    assert f"Removed {left[0]}, left behind by an interrupted run." in report


def test_a_304_to_an_unconditional_request_is_not_unchanged(data, tmp_path, site):
    site.routes["/immer304.csv"] = _static(304, ETag='"x"')
    _register(data, [("immer304", f"{site.url}/immer304.csv")])
    [result] = run(data, tmp_path / "archiv", CONFIG, RULES, clock=lambda: DAY).sources
    assert result.status == "failed" and result.http_status == 304
    assert result.reason == "HTTP 304 to a request that was not conditional"
    assert Archive(tmp_path / "archiv").manifest("immer304").versions == []
