"""Every message a gate answers with, as data: templates with named placeholders.

`{name}` placeholders are filled by `fill` (never `str.format`, so the edge gate can fill
them the same way: one pass, values inserted as they are). Placeholders named after a
setting are filled from `GateSettings` (see `GateSettings.messages`); the others, such as
`{retry_after}`, when the answer is made.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

PLACEHOLDER = re.compile(r"\{(\w+)\}")
"""A `{name}` in a template: `fill` fills it for one value, `generator.api.templates` per row."""


def placeholders(template: str) -> list[str]:
    """Return the placeholder names of a template, in order."""
    return PLACEHOLDER.findall(template)


def fill(template: str, values: Mapping[str, object], *, partial: bool = False) -> str:
    """Replace each `{name}` by `str(values[name])`; keep unknown ones only if `partial`."""

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in values:
            return str(values[name])
        if partial:
            return match.group(0)
        raise KeyError(f"no value for {{{name}}} in {template!r}")

    return PLACEHOLDER.sub(one, template)


@dataclass(frozen=True)
class Message:
    status: int
    detail: str
    """The `detail` of the JSON body."""
    about: str
    """When it is sent (the OpenAPI description of the response)."""


MESSAGES: dict[str, Message] = {
    "not_found": Message(
        404, "Not Found", "No such path (hidden files under /_data/ included, in any spelling)."
    ),
    "method_not_allowed": Message(
        405, "Method Not Allowed", "The path exists, the method does not (see Allow)."
    ),
    "body_unreadable": Message(
        400,
        "There was an error parsing the body",
        "The JSON body could not be read (e.g. not UTF-8), as FastAPI answers.",
    ),
    "body_too_large": Message(
        413,
        "Request body too large: at most {max_body_bytes} bytes.",
        "The request body is larger than {max_body_bytes} bytes.",
    ),
    "key_missing": Message(
        401,
        "Missing API key: send it in the {key_header} header. Request a key with {access_request}.",
        "No API key in the {key_header} header.",
    ),
    "key_invalid": Message(403, "Invalid API key.", "Unknown key."),
    "key_revoked": Message(403, "This API key has been revoked.", "Revoked key."),
    "quota_used_up": Message(
        429,
        "Daily quota of {daily_quota} requests used up. It resets at midnight {timezone} "
        "({reset}), in {retry_after} seconds.",
        "The key's daily quota is used up.",
    ),
    "burst_limit": Message(
        429,
        "Too many access requests for this address: at most {request_burst} per "
        "{request_window_minutes} minutes. Your earlier requests are stored and will be answered.",
        "Too many access requests for this address.",
    ),
    "request_stored": Message(
        202,
        "Your request is stored. An operator reviews it and sends the key to your address; "
        "the key is never part of this answer.",
        "Accepted: the request is stored and waits for review.",
    ),
    "state_busy": Message(
        503,
        "The gate's state is busy; please retry in a second.",
        "Edge gate only: a counter in Netlify Blobs stayed contended; retry after Retry-After.",
    ),
    "unavailable": Message(
        503,
        "The server cannot answer right now; please retry in {unavailable_retry_after} seconds.",
        "The server could not read the resource or its key and quota store (out of file "
        "descriptors, a disk or storage error): no answer rather than a wrong one; retry after "
        "Retry-After.",
    ),
}
"""The gates' own answers. The 404 of a missing resource is the route's `not_found`."""

RUNTIME_PLACEHOLDERS = frozenset({"reset", "retry_after"})
"""Filled when the answer is made: the next reset (ISO 8601) and seconds until then."""


VALIDATION_MESSAGES: dict[str, str] = {
    "missing": "Field required",
    "string_type": "Input should be a valid string",
    "string_unicode": "Input should be a valid string, unable to parse raw data as a unicode "
    "string",
    "string_too_short": "String should have at least {min_length} character{expected_plural}",
    "string_too_long": "String should have at most {max_length} character{expected_plural}",
    "string_pattern_mismatch": "String should match pattern '{pattern}'",
    "value_error": "Value error, {error}",
    "int_parsing": "Input should be a valid integer, unable to parse string as an integer",
    "int_parsing_size": "Unable to parse input string as an integer, exceeded maximum size",
    "json_invalid": "JSON decode error",
    "model_attributes_type": "Input should be a valid dictionary or object to extract fields from",
}
"""`msg` of each 422 error type, as Pydantic v2 words it (its own templates and names)."""


def validation_message(type_: str, **values: object) -> str:
    """Return the `msg` of a 422 error; `expected_plural` follows the length it names."""
    length = values.get("min_length", values.get("max_length"))
    if length is not None:
        values.setdefault("expected_plural", "" if length == 1 else "s")
    return fill(VALIDATION_MESSAGES[type_], values)


class ErrorRecord(TypedDict):
    """One entry of a 422's `detail`, as Pydantic reports it."""

    type: str
    loc: list[str | int]
    msg: str
    input: Any
    ctx: NotRequired[dict[str, Any]]


def validation_error(
    type_: str,
    loc: Sequence[str | int],
    value: Any,
    ctx: dict[str, Any] | None = None,
    **words: object,
) -> ErrorRecord:
    """Return one 422 error record; `msg` is the contract's wording, filled from ctx and words.

    Key order matters: FastAPI serialises Pydantic's dicts as they come (type, loc, msg,
    input, ctx), so the record is built in that order.
    """
    msg = validation_message(type_, **{**(ctx or {}), **words})
    record: ErrorRecord = {"type": type_, "loc": list(loc), "msg": msg, "input": value}
    if ctx is not None:
        record["ctx"] = ctx
    return record
