"""`GET /v1/zones/{id}/measurements?parameter=CODE`: both gates filter the zone's one series file.

Every code of the register, in every zone of the sample (for the slow emulator of the edge
gate: every code with data and a spread of the others), against each gate: the answer must
be exactly `generator.api.series.filter_series` of the published file (which
tests/test_series.py holds to the bytes of the former per-parameter files), with the ETag
of those bytes. Both gates are held to the same bytes, so the Python and the edge gate
answer every filter identically (the differential test). Unknown codes and empty series are
cases of `cases.py`.
"""

from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor

from generator.api import routes, series
from tests.helpers import tree_bytes

ZONES = (11, 12, 21)
WORKERS = 6
EDGE_EVERY = 12


def etag(body: bytes) -> str:
    return f'"{hashlib.sha256(body).hexdigest()[:32]}"'


def test_every_code_in_every_zone_answers_the_filtered_bytes(gate, gate_build):
    codes = series.register_codes((gate_build / routes.file_path("parameters")).read_bytes())
    files = {
        zone: tree_bytes(gate_build / routes.file_path("zone_measurements", zone_id=zone))
        for zone in ZONES
    }
    measured = {code for body in files.values() for code in codes if f'"{code}"'.encode() in body}
    # The local emulator takes ~0.15 s per keyed request, so the edge gate gets every code
    # with data and every EDGE_EVERY-th code of the register (the Python gate gets all).
    asks = [
        (zone, code)
        for zone in ZONES
        for i, code in enumerate(codes)
        if gate.name == "python" or code in measured or i % EDGE_EVERY == 0
    ]
    shares = [asks[i::WORKERS] for i in range(WORKERS)]

    def run(share: list[tuple[int, str]]) -> list[tuple[int, str, int, bytes, str | None]]:
        key = gate.new_key()
        out = []
        for zone, code in share:
            answer = gate.client.get(
                f"/v1/zones/{zone}/measurements?parameter={code}", headers={"X-Api-Key": key}
            )
            out.append((zone, code, answer.status_code, answer.content, answer.headers.get("etag")))
        return out

    with ThreadPoolExecutor(WORKERS) as pool:
        answers = [a for share in pool.map(run, shares) for a in share]
    assert len(answers) == len(asks) >= (3 * 282 if gate.name == "python" else 3 * 30)
    wrong, with_rows = [], 0
    for zone, code, status, body, tag in answers:
        expected = series.filter_series(files[zone], code, {"zone_id": str(zone)})
        with_rows += b'"count":0,' not in expected
        if (status, body, tag) != (200, expected, etag(expected)):
            wrong.append((zone, code, status, body[:200]))
    assert not wrong, wrong[:5]
    # every (zone, parameter) pair the golden input has data for answered with its rows
    assert with_rows == _pairs_with_data(ZONES)


def _pairs_with_data(zones: tuple[int, ...] | list[int]) -> int:
    import csv

    from tests.helpers import GOLDEN_INPUT

    with (GOLDEN_INPUT / "measurements.csv").open(encoding="utf-8") as fh:
        return len(
            {
                (r["zone_id"], r["parameter"])
                for r in csv.DictReader(fh)
                if int(r["zone_id"]) in zones
            }
        )


def test_a_filtered_answer_revalidates_with_its_own_etag(gate, gate_build):
    key = gate.new_key()
    target = "/v1/zones/21/measurements?parameter=nitrat"
    first = gate.client.get(target, headers={"X-Api-Key": key})
    whole = gate.client.get("/v1/zones/21/measurements", headers={"X-Api-Key": key})
    assert first.status_code == whole.status_code == 200
    assert first.headers["etag"] != whole.headers["etag"]
    again = gate.client.get(
        target, headers={"X-Api-Key": key, "If-None-Match": first.headers["etag"]}
    )
    assert (again.status_code, again.content) == (304, b"")
    assert again.headers["etag"] == first.headers["etag"]
    head = gate.client.head(target, headers={"X-Api-Key": key})
    assert (head.status_code, head.content, head.headers["etag"]) == (
        200,
        b"",
        first.headers["etag"],
    )
