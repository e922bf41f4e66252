"""The gate's parameter rules against Pydantic and FastAPI themselves (property-based).

The conformance suite compares chosen requests over HTTP; these tests throw generated inputs
at both sides in-process, where thousands of comparisons take a second.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Annotated

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import Field, TypeAdapter, ValidationError

from generator.api.routes import EMAIL_MESSAGE, EMAIL_PATTERN, ROUTES, is_one_address, route
from generator.gate.validation import (
    MAX_INT_DIGITS,
    check_value,
    compile_pattern,
    error_body,
    parse_int,
    rust_trim,
    validate,
)
from tests.conformance.reference import reference_app
from tests.conformance.support import event_loop_thread

INT = TypeAdapter(int)
INT_ALPHABET = "0123456789_+-. \t\n\x0b\x1c\x1f\x85\xa0\u2003\u3000١１eE0x"


def pydantic_int(text: str) -> int | str:
    try:
        return INT.validate_python(text)
    except ValidationError as exc:
        return exc.errors()[0]["type"]


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet=INT_ALPHABET, max_size=24))
def test_integers_parse_like_pydantic(text):
    assert parse_int(text) == pydantic_int(text)


@settings(max_examples=300, deadline=None)
@given(
    sign=st.sampled_from(["", "+", "-", " ", "\u3000"]),
    digits=st.from_regex(r"[0-9](_?[0-9]){0,30}", fullmatch=True),
    tail=st.sampled_from(["", ".0", ".00", ".", ".5", " ", "_", "e1"]),
)
def test_integer_shapes_parse_like_pydantic(sign, digits, tail):
    text = sign + digits + tail
    assert parse_int(text) == pydantic_int(text)


@pytest.mark.parametrize(
    "text",
    [
        "1" * MAX_INT_DIGITS,
        "1" * (MAX_INT_DIGITS + 1),
        "-" + "1" * MAX_INT_DIGITS,
        "-" + "1" * (MAX_INT_DIGITS + 1),
        "+" + "1" * (MAX_INT_DIGITS + 1),
        "0" * 10 + "1" * MAX_INT_DIGITS,
        "1" * (MAX_INT_DIGITS + 1) + "é",
        "1_" * MAX_INT_DIGITS + "1",
        "1" * MAX_INT_DIGITS + ".0",
        "1" * (MAX_INT_DIGITS + 1) + ".0",
        " " * 5000 + "7",
        "0" * 5 + "1" * (MAX_INT_DIGITS + 1),
        "-0" + "1" * (MAX_INT_DIGITS + 1),
        "0" * 4400,
        "1" * MAX_INT_DIGITS + "." + "0" * 10,
    ],
    ids=lambda t: f"{len(t)}-chars",
)
def test_very_long_integers_like_pydantic(text):
    assert parse_int(text) == pydantic_int(text)


@pytest.mark.parametrize(
    "text", ["0-0", "0-5", "00-5", "+0-5", "0_-5", "0-_5", "-0_0", "0-0_0", "0-05", "0_", "1_"]
)
def test_pydantic_quirks_after_leading_zeros(text):
    # Pydantic strips leading zeros before it looks for the sign: "0-5" is -5.
    assert parse_int(text) == pydantic_int(text)


def test_rust_trim_is_not_python_strip():
    assert rust_trim("\x1c1\x1f") == "\x1c1\x1f"
    assert rust_trim("\u3000\xa01\x85\u2029") == "1"


def test_dollar_means_end_of_text():
    assert compile_pattern(r"^\d{5}$").search("12345")
    assert not compile_pattern(r"^\d{5}$").search("12345\n")
    assert compile_pattern(r"^[$]x$").search("$x")
    assert compile_pattern(r"^\$$").search("$")


STRING_PARAMS = [
    (r.operation_id, p)
    for r in ROUTES
    for p in r.params
    if p.type == "string" and (p.min_length or p.max_length or p.pattern)
]
STRING_ALPHABET = "01234567aAzZ_-@. \n\t١１é"


@functools.cache
def string_adapter(param) -> TypeAdapter:
    constraints = {
        k: v
        for k, v in (
            ("min_length", param.min_length),
            ("max_length", param.max_length),
            ("pattern", param.pattern),
        )
        if v is not None
    }
    return TypeAdapter(Annotated[str, Field(**constraints)])


def pydantic_string(param, value):
    try:
        string_adapter(param).validate_python(value)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        error.pop("loc")
        return error
    return None


@pytest.mark.parametrize("param", [p for _, p in STRING_PARAMS], ids=lambda p: p.name)
@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_string_constraints_like_pydantic(param, data):
    short = st.text(alphabet=STRING_ALPHABET, max_size=8)
    near_bounds = st.text(
        alphabet=STRING_ALPHABET,
        min_size=max(0, (param.max_length or 8) - 2),
        max_size=(param.max_length or 8) + 2,
    )
    value = data.draw(st.one_of(short, near_bounds))
    _, error = check_value(param, value, ("query", param.name))
    expected = pydantic_string(param, value)
    if param.email and expected is None and error is not None:
        # The address check is the route's own validator, not a Pydantic constraint.
        assert error["type"] == "value_error"
        return
    if expected is None:
        assert error is None, (value, error)
    else:
        assert error is not None, (value, expected)
        assert {k: v for k, v in error.items() if k != "loc"} == expected


# ---------------------------------------------------------------------------- bodies

JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(alphabet="abcäz @.\n", max_size=12),
    st.text(alphabet="ab@.", min_size=250, max_size=260),
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)
BODIES = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "email": st.one_of(JSON_SCALARS, st.emails().map(str)),
            "zweck": st.one_of(JSON_SCALARS, st.text(min_size=8, max_size=14)),
            "other": JSON_VALUES,
        },
    ),
    JSON_VALUES,
)


@pytest.fixture(scope="module")
def fastapi_client():
    app = reference_app()
    client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://ref")
    with event_loop_thread() as portal:
        yield lambda body, ctype: portal.call(
            functools.partial(
                client.post, "/v1/keys/antrag", content=body, headers={"content-type": ctype}
            )
        )
        portal.call(client.aclose)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=BODIES,
    content_type=st.sampled_from(["application/json", "application/ld+json", "text/plain"]),
)
def test_access_request_bodies_like_fastapi(fastapi_client, body, content_type):
    raw = json.dumps(body, ensure_ascii=False).encode("utf-8")
    expected = fastapi_client(raw, content_type)
    result = validate(route("access_request"), {}, [], raw, content_type)
    if expected.status_code == 422:
        assert error_body(result.errors) == expected.content
    else:
        assert expected.status_code == 202
        assert result.errors == []


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    raw=st.binary(max_size=40) | st.text(alphabet='{}[]",:01 ae\\u', max_size=30).map(str.encode)
)
def test_broken_bodies_like_fastapi(fastapi_client, raw):
    from generator.gate.validation import BodyParseError

    expected = fastapi_client(raw, "application/json")
    try:
        result = validate(route("access_request"), {}, [], raw, "application/json")
    except BodyParseError as exc:
        assert expected.status_code == 400
        assert expected.json() == {"detail": exc.detail}
        return
    if expected.status_code == 500:
        # FastAPI cannot render some inputs (lone surrogates); the gate still answers a 422.
        assert result.errors and json.loads(error_body(result.errors))
        return
    if result.errors:
        assert (expected.status_code, expected.content) == (422, error_body(result.errors))
    else:
        assert expected.status_code == 202, expected.text


# ---------------------------------------------------------------------------- one address

ADDRESS_ALPHABET = "ab.@-_+=?,;:<>()[]\"' \t\r\n\\!#$%&*/^`{|}~äÿ\u2028\x00\x85"


@settings(max_examples=1500, deadline=None)
@given(
    st.one_of(
        st.text(alphabet=ADDRESS_ALPHABET, max_size=16),
        st.emails().map(str),
        st.builds(
            lambda a, b: f"{a}@{b}",
            st.text(alphabet=ADDRESS_ALPHABET, max_size=8),
            st.text(alphabet=ADDRESS_ALPHABET, max_size=8),
        ),
    )
)
def test_the_address_pattern_is_what_the_standard_library_reads_as_one_address(value):
    # The edge gate applies the pattern alone; the Python gate the pattern and the standard
    # library. They must never differ, or the two gates would answer differently.
    assert is_one_address(value) == bool(re.fullmatch(EMAIL_PATTERN, value)), value


@pytest.mark.parametrize(
    "value",
    [
        "a@example.org,=?utf-8?b?YkBleGFtcGxlLm9yZw==?=",
        "a@example.org, b@example.org",
        "a@example.org;b@example.org",
        "=?utf-8?q?a=0D=0ABcc=3A_b=40x.de?=@example.org",
        "a@x.de\r\nBcc: b@y.de",
        "Ada <a@x.de>",
        "a@x.de (Ada)",
        '"a b"@x.de',
        "a@x.de\n",
        "a@[127.0.0.1]",
        "müller@x.de",
        "a@x.de\x00",
    ],
)
def test_more_than_one_recipient_or_a_hidden_one_is_refused(value):
    email = route("access_request").param("email")
    _, error = check_value(email, value, ("body", "email"))
    assert error is not None and error["type"] == "value_error", value
    assert error["msg"] == f"Value error, {EMAIL_MESSAGE}"


@pytest.mark.parametrize("value", ["ada@example.org", "a.b+c@xn--mller-kva.de", "a@localhost"])
def test_one_plain_address_is_accepted(value):
    email = route("access_request").param("email")
    assert check_value(email, value, ("body", "email")) == (value, None)
