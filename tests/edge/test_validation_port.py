"""The edge gate's validation is the Python gate's, byte for byte, on thousands of requests.

netlify/gate/validate.ts ports generator/gate/validation.py (which is itself checked against
Pydantic and FastAPI). Here both run over the same generated corpus: integers, strings,
Unicode, query strings, raw paths and request bodies (valid, truncated, mistyped, other
encodings, NaN, huge numbers, lone surrogates). Any different byte fails. Deno runs the
TypeScript directly; no emulator is needed, so this takes a few seconds.
"""

from __future__ import annotations

import base64
import json
import random
import subprocess
from urllib.parse import parse_qsl

import pytest

from generator.api.routes import route
from generator.api.settings import GateSettings, routes_document
from generator.gate.responses import split_path
from generator.gate.validation import BodyParseError, error_body, validate
from tests.edge.emulator import ROOT, tool, tool_env

pytestmark = pytest.mark.edge

SEED = 20261123
INT_ALPHABET = "0123456789_+-. \t\n\x0b\x1c\x1f\x85\xa0\u2003\u3000١１eE0x"
TEXT_ALPHABET = "az09_-AZ. \t\n\r\x00\x1c\x85\xa0\u2028\u3000äß@١１\U0001f600\ud800%+&="
CONTENT_TYPES = [
    None,
    "",
    "application/json",
    "application/json; charset=utf-8",
    "APPLICATION/JSON",
    " application/json ",
    "application/vnd.api+json",
    "application/merge-patch+json; x=1",
    "application/jsonx",
    "application/ json",
    "application/json/x",
    "application",
    "text/plain",
    "text/json",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
]


def _text(rng: random.Random, alphabet: str, size: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, size)))


def _json_value(rng: random.Random, depth: int = 0):
    kind = rng.randrange(12 if depth < 3 else 8)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, -1, 5, 10**20, -(10**30), 2**63])
    if kind == 3:
        return rng.choice([0.0, -0.0, 5.0, 1.5, 1e16, 1e-5, 123.456, 1e300, 2.5e-10])
    if kind in (4, 5, 6, 7):
        return _text(rng, TEXT_ALPHABET, 30)
    if kind in (8, 9):
        return [_json_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {_text(rng, "abe@", 4): _json_value(rng, depth + 1) for _ in range(rng.randint(0, 3))}


def _body_object(rng: random.Random) -> object:
    shape = rng.randrange(10)
    if shape == 0:
        return _json_value(rng)
    doc: dict = {}
    for name, sizes in (("email", (1, 10, 260)), ("zweck", (5, 12, 1005))):
        choice = rng.randrange(6)
        if choice == 0:
            continue  # missing
        if choice == 1:
            doc[name] = _json_value(rng)
        elif choice == 2:
            doc[name] = "a@b.de" if name == "email" else "Ein ausreichend langer Zweck"
        else:
            doc[name] = _text(rng, TEXT_ALPHABET, rng.choice(sizes))
    if rng.random() < 0.2:
        doc["extra"] = _json_value(rng)
    return doc


def _body(rng: random.Random) -> bytes:
    text = json.dumps(_body_object(rng), ensure_ascii=rng.random() < 0.5)
    mutation = rng.randrange(16)
    if mutation == 0:
        text = text[: rng.randint(0, len(text))]
    elif mutation == 1 and text:
        i = rng.randrange(len(text))
        text = text[:i] + rng.choice('{}[]",:\\ \x01\ud800tnfNI-0e.') + text[i:]
    elif mutation == 2:
        text = rng.choice(
            [
                '{"email": NaN, "zweck": Infinity}',
                '{"email": -Infinity}',
                '{"email": "\\ud800", "zweck": "\\udc00\\ud83d\\ude00 lang genug"}',
                '{"email": "a@b.de", "zweck": "\\u00e4\\u0000\\u001f text ok"}',
                '{"email": 1e400, "zweck": -0.0}',
                '{"email": 12345678901234567890123, "zweck": 1.0}',
                '{"email":"a@b.de","email":"x@y.z","zweck":"doppelt aber lang"}',
                '{"email": "a\\x"}',
                '{"email": "\\u12"}',
                '{"email": "\\ud800\\u12"}',
                "[" * 50 + "]" * 50,
                '{"a": 01}',
                "1.5e3",
                "  \t\n",
                '"\\ud83d\\ude00"',
                "[1,]",
                '{"a":1,}',
                "{'email': 'a@b.de'}",
            ]
        )
    data = text.encode("utf-8", "surrogatepass")
    encoding = rng.randrange(14)
    if encoding == 0:
        data = b"\xef\xbb\xbf" + data
    elif encoding == 1:
        data = text.encode("utf-16", "surrogatepass")
    elif encoding == 2:
        data = text.encode("utf-16-le", "surrogatepass")
    elif encoding == 3:
        data = text.encode("utf-32-be", "surrogatepass")
    elif encoding == 4 and data:
        i = rng.randrange(len(data))
        data = data[:i] + bytes([rng.randrange(256)]) + data[i + 1 :]
    return data


def corpus(size: int = 4000) -> list[dict]:
    rng = random.Random(SEED)
    jobs: list[dict] = []
    for _ in range(size):
        which = rng.randrange(8)
        query: list[list[str]] = []
        path: dict[str, str] = {}
        body = content_type = None
        if which in (0, 1):
            name = "lookup"
            for _ in range(rng.randint(0, 2)):
                value = rng.choice(["76437", "01067", _text(rng, "0123456789a ١１\n", 7)])
                query.append([rng.choice(["plz", "plz", "PLZ", "x"]), value])
        elif which == 2:
            name = rng.choice(["zone", "supplier"])
            key = "zone_id" if name == "zone" else "supplier_id"
            path[key] = _text(rng, INT_ALPHABET, 14) or "0"
        elif which == 3:
            name = "zone_measurements"
            path["zone_id"] = _text(rng, INT_ALPHABET, 8) or "1"
            if rng.random() < 0.7:
                query.append(
                    ["parameter", _text(rng, "abz_09A- \n", 70 if rng.random() < 0.1 else 8)]
                )
        elif which == 4:
            name = "parameter_limits"
            path["code"] = _text(rng, TEXT_ALPHABET, 70 if rng.random() < 0.1 else 10) or "x"
        elif which == 5:
            name = "export"
            if rng.random() < 0.8:
                query.append(["format", rng.choice(["json", "csv", "", "CSV", "xml", "json\n"])])
        else:
            name = "access_request"
            body = _body(rng) if rng.random() < 0.95 else b""
            content_type = rng.choice(CONTENT_TYPES)
        jobs.append(
            {
                "validate": {
                    "route": name,
                    "path": path,
                    "query": query,
                    "body": None if body is None else base64.b64encode(body).decode(),
                    "content_type": content_type,
                }
            }
        )
    for _ in range(size // 4):
        jobs.append({"qsl": _text(rng, "ab=&+%2F0A9zé\x7f;", 16)})
        raw = "/" + _text(rng, "v1/_data.%2F5c2e00az\\", 20)
        jobs.append({"split": raw})
    return jobs


def python_answer(job: dict):
    if "qsl" in job:
        return [list(pair) for pair in parse_qsl(job["qsl"], keep_blank_values=True)]
    if "split" in job:
        return split_path(job["split"].encode("ascii"))
    request = job["validate"]
    r = route(request["route"])
    body = None if request["body"] is None else base64.b64decode(request["body"])
    query = [tuple(pair) for pair in request["query"]]
    try:
        result = validate(r, request["path"], query, body, request["content_type"])
    except BodyParseError as exc:
        text = json.dumps({"detail": exc.detail}, ensure_ascii=False, separators=(",", ":"))
        return {"status": 400, "body": text}
    if result.errors:
        return {"status": 422, "body": error_body(result.errors).decode("utf-8")}
    return {"status": 200, "file": r.file_for(result.values), "detail": r.detail_for(result.values)}


def edge_answers(jobs: list[dict], tmp_path) -> list:
    routes_json = tmp_path / "routes.json"
    routes_json.write_text(json.dumps(routes_document(GateSettings())), encoding="utf-8")
    done = subprocess.run(
        [
            tool("deno"),
            "run",
            "--quiet",
            "--allow-read",
            "--allow-env",
            str(ROOT / "tests" / "edge" / "validate_cli.ts"),
            str(routes_json),
        ],
        input=json.dumps(jobs).encode(),
        capture_output=True,
        cwd=ROOT,
        env=tool_env(),
    )
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)


def test_edge_validation_equals_python(tmp_path):
    jobs = corpus()
    got = edge_answers(jobs, tmp_path)
    assert len(got) == len(jobs)
    different = [
        (job, edge, python)
        for job, edge in zip(jobs, got, strict=True)
        if edge != (python := python_answer(job))
    ]
    shown = "\n\n".join(f"{j}\n  edge:   {e}\n  python: {p}" for j, e, p in different[:5])
    assert not different, f"{len(different)} of {len(jobs)} answers differ, e.g.\n{shown}"
    # The corpus must reach every outcome, or the comparison proves little.
    statuses = {a["status"] for a in got if isinstance(a, dict)}
    assert statuses == {200, 400, 422}
    kinds = {
        t
        for a in got
        if isinstance(a, dict) and a["status"] == 422
        for t in (e["type"] for e in json.loads(a["body"])["detail"])
    }
    assert {
        "missing",
        "string_too_short",
        "string_too_long",
        "string_pattern_mismatch",
        "int_parsing",
        "json_invalid",
        "model_attributes_type",
        "string_type",
        "value_error",
        "string_unicode",
    } <= kinds
