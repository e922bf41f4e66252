"""Validate request parameters by the route table, with error lists identical to FastAPI's.

The gate must answer bad parameters exactly as a FastAPI app (Pydantic v2) declared from the
same table would: same error types, locations, messages, inputs and contexts, all errors of a
request in declaration order (path, then query, then body). The rules below reproduce
Pydantic's lax-mode behaviour for the few types the table uses; the conformance suite proves
the bytes equal against a real FastAPI app, and `tests/test_gate_validation.py` fuzzes the
integer and string rules against Pydantic itself.
"""

from __future__ import annotations

import email.message
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from generator.api.messages import MESSAGES, ErrorRecord, validation_error
from generator.api.routes import EMAIL_MESSAGE, Param, Route, is_one_address

MAX_INT_DIGITS = 4300
"""Pydantic refuses longer integers, as Python does since 3.11 (int_max_str_digits)."""

# Rust's `str::trim` strips the Unicode White_Space property, which is not Python's
# `str.isspace()`: U+001C..U+001F count as space in Python but not in Pydantic.
_WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_DIGITS = re.compile(r"[0-9]*", re.ASCII)
_NONZERO = frozenset("123456789")


class BodyParseError(Exception):
    """The body is neither JSON nor a JSON syntax error (e.g. not UTF-8): FastAPI answers 400."""

    detail = MESSAGES["body_unreadable"].detail


@dataclass(frozen=True)
class Result:
    values: dict[str, Any]
    errors: list[ErrorRecord]


# ---------------------------------------------------------------------------- error records
# Built by `generator.api.messages.validation_error`, which OpenAPI's examples use too.


def missing(loc: Sequence[str | int], value: Any = None) -> ErrorRecord:
    return validation_error("missing", loc, value)


def json_invalid(position: int, message: str) -> ErrorRecord:
    return validation_error("json_invalid", ("body", position), {}, {"error": message})


# ---------------------------------------------------------------------------- scalar rules


def rust_trim(text: str) -> str:
    """Strip leading and trailing Unicode White_Space, as Rust's `str::trim` does."""
    start, end = 0, len(text)
    while start < end and text[start] in _WHITE_SPACE:
        start += 1
    while end > start and text[end - 1] in _WHITE_SPACE:
        end -= 1
    return text[start:end]


def _json_int(text: str) -> int | str | None:
    """Read `text` as a JSON integer (jiter's rules); "range" if the digits exceed the limit."""
    i = 1 if text.startswith("-") else 0
    if i >= len(text):
        return None
    if text[i] == "0":
        # JSON allows no leading zeros: a lone 0 (or -0), or nothing.
        return 0 if i + 1 == len(text) else None
    if text[i] not in _NONZERO:
        return None
    digits = _DIGITS.match(text, i)
    assert digits is not None  # `[0-9]*` matches anywhere, if only the empty string
    run = digits.end() - i
    if run > MAX_INT_DIGITS:
        return "range"
    if i + run != len(text):
        return None
    value = int(text[i:])
    return -value if i else value


def _strip_leading_zeros(text: str) -> str | None:
    # Zeros and underscores before the first other digit go; "000" keeps one zero, "00.0"
    # keeps the zero before the dot, and a minus after the zeros survives ("0-5" is -5).
    if not text:
        return None
    if text[0] != "0":
        return text if text[0] in _NONZERO or text[0] == "-" else None
    for i in range(1, len(text)):
        char = text[i]
        if char in "0_":
            continue
        if char in _NONZERO or char == "-":
            return text[i:]
        if char == ".":
            return text[i - 1 :]
        return None
    return text[-1]


def _strip_underscores(text: str) -> str | None:
    if text.startswith("_") or text.endswith("_") or "_" not in text or "__" in text:
        return None
    return text.replace("_", "")


def _clean_int_text(raw: str) -> str | None:
    """Tidy a string that is no plain integer the way Pydantic does, or None if hopeless."""
    text = rust_trim(raw)
    if text.startswith("+"):
        if text[1:].startswith("-"):
            return None
        text = text[1:]
    sign = ""
    if text.startswith("-"):
        if text[1:].startswith(("-", "+")):
            return None
        sign, text = "-", text[1:]
    tidied = _strip_leading_zeros(text)
    if tidied is None:
        return None
    text = tidied
    dot = text.find(".")
    if dot >= 0 and text[dot + 1 :] and set(text[dot + 1 :]) == {"0"}:
        text = text[:dot]
    stripped = _strip_underscores(text)
    if stripped is not None:
        return sign + stripped
    if len(text) == len(raw):
        return None  # nothing was tidied, so a second reading cannot succeed
    return sign + text


def parse_int(raw: str) -> int | str:
    """Parse a string the way Pydantic's lax `int` does; return the int or the error type.

    A strict JSON integer first; failing that, the text is tidied (Unicode white space around
    it, a `+`, leading zeros, a fraction of zeros such as "1.0", single underscores between
    digits) and read again. Refused: e.g. "1.5", "1e3", "0x10", full-width digits. More than
    4300 digits give `int_parsing_size` (Python's limit since 3.11).
    """
    value = _json_int(raw)
    if isinstance(value, int):
        return value
    if value == "range":
        return "int_parsing_size"
    cleaned = _clean_int_text(raw)
    value = None if cleaned is None else _json_int(cleaned)
    return value if isinstance(value, int) else "int_parsing"


@cache
def compile_pattern(pattern: str) -> re.Pattern[str]:
    """Compile a table pattern with the semantics of Pydantic's Rust regex engine.

    Both engines treat `\\d`, `\\s` and `\\w` as Unicode classes, but in Rust `$` matches only
    at the very end while Python's `$` also matches before a final newline: translate `$`
    (outside character classes, unescaped) into `\\Z`.
    """
    out, in_class, i = [], False, 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if char == "[":
            in_class = True
        elif char == "]":
            in_class = False
        elif char == "$" and not in_class:
            char = r"\Z"
        out.append(char)
        i += 1
    return re.compile("".join(out))


def _has_surrogates(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def check_string(param: Param, value: str, loc: Sequence[str | int]) -> ErrorRecord | None:
    """Return the first error of a string against its constraints, or None."""
    if _has_surrogates(value):
        return validation_error("string_unicode", loc, value)
    if param.min_length is not None and len(value) < param.min_length:
        return validation_error("string_too_short", loc, value, {"min_length": param.min_length})
    if param.max_length is not None and len(value) > param.max_length:
        return validation_error("string_too_long", loc, value, {"max_length": param.max_length})
    if param.pattern is not None and not compile_pattern(param.pattern).search(value):
        return validation_error("string_pattern_mismatch", loc, value, {"pattern": param.pattern})
    # The address check is a field validator, so it runs only after the constraints passed.
    if param.email and not is_one_address(value):
        return validation_error("value_error", loc, value, {"error": {}}, error=EMAIL_MESSAGE)
    return None


def check_value(
    param: Param, value: Any, loc: Sequence[str | int]
) -> tuple[Any, ErrorRecord | None]:
    """Validate one present value (a string from the URL or any JSON value from a body)."""
    if param.type == "integer":
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            # Not reachable from the URL; a JSON body would need the full Pydantic int rules.
            raise NotImplementedError("integer body parameters are not supported")
        if isinstance(value, int):
            return value, None
        parsed = parse_int(value)
        if isinstance(parsed, int):
            return parsed, None
        return None, validation_error(parsed, loc, value)
    if not isinstance(value, str):
        return None, validation_error("string_type", loc, value)
    return value, check_string(param, value, loc)


# ---------------------------------------------------------------------------- request


def _last_values(items: Iterable[tuple[str, str]]) -> dict[str, str]:
    # Starlette's QueryParams.get returns the last of repeated names; FastAPI uses it.
    return dict(items)


def _is_json_content_type(content_type: str) -> bool:
    # FastAPI parses the header with email.message; do the same so odd spellings agree.
    message = email.message.Message()
    message["content-type"] = content_type
    if message.get_content_maintype() != "application":
        return False
    subtype = message.get_content_subtype()
    return subtype == "json" or subtype.endswith("+json")


def decode_body(body: bytes, content_type: str | None) -> Any:
    """Turn a raw body into what FastAPI validates: parsed JSON, or the raw bytes.

    Raise `json.JSONDecodeError` where FastAPI answers 422 `json_invalid`, and BodyParseError
    where it answers 400 (bytes that are not UTF-8, nesting too deep to parse).
    """
    # strict_content_type (FastAPI's default since 0.132): JSON only when the header says so.
    if content_type and _is_json_content_type(content_type):
        try:
            return json.loads(body)
        except json.JSONDecodeError:
            raise
        except (ValueError, RecursionError) as exc:
            raise BodyParseError() from exc
    return body


def _body_errors(
    params: Sequence[Param], body: bytes | None, content_type: str | None
) -> tuple[dict[str, Any], list[ErrorRecord]]:
    """Validate a JSON object body against the body parameters, as one Pydantic model."""
    values: dict[str, Any] = {}
    if not body:
        return values, [missing(("body",))]
    try:
        data = decode_body(body, content_type)
    except json.JSONDecodeError as exc:
        return values, [json_invalid(exc.pos, exc.msg)]
    if not isinstance(data, dict):
        shown = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        return values, [validation_error("model_attributes_type", ("body",), shown)]
    errors: list[ErrorRecord] = []
    for param in params:
        loc = ("body", param.name)
        if param.name not in data:
            if param.required:
                errors.append(missing(loc, data))
            continue
        value, error = check_value(param, data[param.name], loc)
        if error:
            errors.append(error)
        else:
            values[param.name] = value
    return values, errors


def validate(
    route: Route,
    path_params: dict[str, str],
    query: Iterable[tuple[str, str]] = (),
    body: bytes | None = None,
    content_type: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> Result:
    """Validate one request against its route; raise BodyParseError for FastAPI's 400 case.

    `path_params` are the percent-decoded path segments by parameter name, `query` the decoded
    (name, value) pairs in order of appearance, `headers` the request headers by lower-case
    name. FastAPI's order: path, query, header, then the body.
    """
    values: dict[str, Any] = {}
    errors: list[ErrorRecord] = []
    query_values = _last_values(query)
    for location in ("path", "query", "header"):
        for param in route.params:
            if param.location != location:
                continue
            if location == "path":
                raw = path_params.get(param.name)
            elif location == "query":
                raw = query_values.get(param.name)
            else:
                raw = (headers or {}).get(param.name.lower())
            loc = (location, param.name)
            if raw is None:
                if param.required:
                    errors.append(missing(loc))
                else:
                    values[param.name] = None
                continue
            value, error = check_value(param, raw, loc)
            if error:
                errors.append(error)
            else:
                values[param.name] = value
    body_params = [p for p in route.params if p.location == "body"]
    if body_params:
        body_values, body_errors = _body_errors(body_params, body, content_type)
        values.update(body_values)
        errors.extend(body_errors)
    return Result(values, errors)


def error_body(errors: list[ErrorRecord]) -> bytes:
    """Render a 422 body byte for byte as FastAPI's JSONResponse does."""
    content = {"detail": errors}
    try:
        text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return text.encode("utf-8")
    except (ValueError, UnicodeEncodeError):
        # FastAPI fails with a 500 on these inputs (NaN, lone surrogates); answer a valid 422.
        return json.dumps(_printable(content), ensure_ascii=False, separators=(",", ":")).encode(
            "utf-8"
        )


def _printable(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, list):
        return [_printable(v) for v in value]
    if isinstance(value, dict):
        return {_printable(k): _printable(v) for k, v in value.items()}
    return value
