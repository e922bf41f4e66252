"""The OpenAPI 3.1 description of the API, made from the route table.

Operations, parameters, their constraints and the gates' messages come from the service
contract (`generator.api`); the schemas and examples of the documents the render stage
writes come from their declarations (`generator.api.resources`; the test suite validates
every file of a sample build against them). The bodies the gates answer with are below.
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

import polars as pl

from generator import __version__
from generator.api import fields, resources, routes
from generator.api.http import DOWNLOAD_SUFFIXES, KEY_HEADER, MEDIA_TYPES, REQUEST_ID
from generator.api.messages import MESSAGES, ErrorRecord, Message, fill, validation_error
from generator.api.settings import TIMEZONE, GateSettings
from generator.config import Config

REF = fields.REF
JSON = MEDIA_TYPES[".json"]
SECURITY_SCHEME = "ApiKey"
Schema = dict[str, Any]
"""A JSON Schema, or any other object of the OpenAPI document."""
EXAMPLE_KEY_TAIL = "DcfP3tSVPSeIOEAuikqR5I7bpNNTb1Gy"
"""The random part of the example key (the prefix is the configured one). No gate knows it:
it answers 403, and the API reference says so beside every example that shows it."""


def example_key(settings: GateSettings) -> str:
    """Return the key the document's examples show (it does not work)."""
    return settings.key_prefix + EXAMPLE_KEY_TAIL


EXAMPLE_DAY = dt.date(2026, 11, 24)
"""The day the example 429 resets at (its midnight in the quota's time zone)."""
EXAMPLE_REQUEST_ID = "req_k3x9a0b1c2d3e4f5"


def _obj(required: dict[str, Schema], description: str = "") -> Schema:
    """Return a closed object schema: every listed property present, no others."""
    schema: dict[str, Any] = {
        "type": "object",
        "properties": required,
        "required": sorted(required),
        "additionalProperties": False,
    }
    if description:
        schema["description"] = description
    return schema


def _ref(name: str) -> Schema:
    return {"$ref": REF + name}


STR: Schema = {"type": "string"}
INT: Schema = {"type": "integer"}


def _array(items: Schema) -> Schema:
    return {"type": "array", "items": items}


def schemas() -> dict[str, Schema]:
    """Return the component schemas (resources, errors, the access request)."""
    return {
        **{
            name: fields.resource_schema(r, resources.ENUMS)
            for name, r in resources.RESOURCES.items()
        },
        **{name: fields.enum_schema(*named) for name, named in resources.ENUMS.items()},
        **gate_schemas(),
    }


def gate_schemas() -> dict[str, Schema]:
    """Return the schemas of what the gates accept and answer themselves (not the files)."""
    body = {p.name: _param_schema(p) for p in routes.route("access_request").params}
    return {
        "AccessRequest": {
            "type": "object",
            "description": "Other members are ignored (as FastAPI does): the gates read only "
            "these two.",
            "properties": body,
            "required": sorted(body),
        },
        "AccessRequestAccepted": _obj(
            {
                "detail": STR,
                "request_id": {"type": "string", "pattern": REQUEST_ID.pattern},
                "status": {"type": "string", "const": "pending"},
            },
            "The request is stored; an operator sends the key by e-mail.",
        ),
        "Error": _obj({"detail": STR}, "An error with a human-readable `detail`."),
        "ValidationError": {
            "type": "object",
            "description": "One problem, as Pydantic v2 reports it (FastAPI's format).",
            "properties": {
                "type": STR,
                "loc": _array({"type": ["string", "integer"]}),
                "msg": STR,
                "input": {},
                "ctx": {"type": "object"},
            },
            "required": ["loc", "msg", "type"],
            "additionalProperties": False,
        },
        "HTTPValidationError": {
            "type": "object",
            "description": "Every problem of the request, in declaration order (identical to "
            "FastAPI).",
            "properties": {"detail": _array(_ref("ValidationError"))},
            "additionalProperties": False,
        },
    }


def _param_schema(p: routes.Param) -> Schema:
    schema: dict[str, Any] = {"type": p.type}
    for key, value in (
        ("minLength", p.min_length),
        ("maxLength", p.max_length),
        ("pattern", p.pattern),
        ("default", p.default),
    ):
        if value is not None:
            schema[key] = value
    if p.description:
        schema["description"] = p.description
    if p.email:
        schema["format"] = "email"
        schema["description"] = (
            f"{p.description} Exactly one address: name@domain in ASCII, a dot-atom before "
            "the `@` and host name labels after it (no display name, comment, quoted part, "
            "list, space, control character or encoded word; an internationalised domain in "
            "its `xn--` form)."
        )
    return schema


# ---------------------------------------------------------------------------- responses


def _error_response(
    messages: dict[str, Message], headers: dict[str, Schema] | None = None
) -> Schema:
    """Return a response of the gate's own messages (an example each, from the contract)."""
    media: dict[str, Any] = {"schema": _ref("Error")}
    if len(messages) == 1:
        media["example"] = {"detail": next(iter(messages.values())).detail}
    else:
        media["examples"] = {n: {"value": {"detail": m.detail}} for n, m in messages.items()}
    about = " ".join(m.about for m in messages.values())
    response: dict[str, Any] = {
        "description": about,
        "content": {JSON: media},
    }
    if headers:
        response["headers"] = headers
    return response


def _pick(messages: dict[str, Message], *names: str) -> dict[str, Message]:
    return {name: messages[name] for name in names}


def _validation_example(route: routes.Route) -> dict[str, list[ErrorRecord]]:
    """Return the 422 body for a request that omits or breaks its first fallible parameter."""
    first = next(p for p in route.params if p.can_fail)
    loc = (first.location, first.name)
    if first.location == "body":
        missing = [
            validation_error("missing", ("body", p.name), {}) for p in route.params if p.required
        ]
        return {"detail": missing}
    if first.type == "integer":
        return {"detail": [validation_error("int_parsing", loc, "abc")]}
    if first.required:
        return {"detail": [validation_error("missing", loc, None)]}
    pattern = {"pattern": first.pattern}
    return {"detail": [validation_error("string_pattern_mismatch", loc, "xml", pattern)]}


def _header(description: str, schema: Schema | None = None) -> Schema:
    return {"description": description, "schema": schema or STR}


def _components_headers() -> dict[str, Schema]:
    return {
        "ETag": _header("Strong validator of the representation; send it as If-None-Match."),
        "Cache-Control": _header("`public` for open resources, `private` for keyed ones."),
        "X-RateLimit-Limit": _header("Requests allowed per key and day.", INT),
        "X-RateLimit-Remaining": _header("Requests left today for this key.", INT),
        "X-RateLimit-Reset": _header(
            f"When the quota resets (next midnight {TIMEZONE}), as Unix seconds.", INT
        ),
        "Retry-After": _header("Seconds until another attempt can succeed.", INT),
        "Link": _header('`<license URL>; rel="license"` on ODbL-licensed responses.'),
        "Content-Disposition": _header("`attachment; filename=...` on CSV downloads."),
    }


def _h(name: str) -> Schema:
    return {"$ref": f"#/components/headers/{name}"}


def _operation(route: routes.Route, examples: dict[str, Any], settings: GateSettings) -> Schema:
    messages = settings.messages()
    keyed = route.access == "key"
    op: dict[str, Any] = {
        "operationId": route.operation_id,
        "summary": route.summary,
        "tags": [route.tag],
        "security": [{SECURITY_SCHEME: []}] if keyed else [],
    }
    if route.description:
        op["description"] = route.description
    parameters = []
    for p in route.params:
        if p.location == "body":
            continue
        param: dict[str, Any] = {
            "name": p.name,
            "in": p.location,
            "required": p.required or p.location == "path",
            "schema": _param_schema(p),
        }
        if p.description:
            param["description"] = p.description
        if p.example is not None:
            param["example"] = p.example
        elif p.location == "header":
            param["example"] = example_key(settings)
            param["description"] = " ".join(
                part
                for part in (
                    p.description,
                    "The example is no key: every gate answers it with 403. Request one with "
                    f"POST {routes.url('access_request')}.",
                )
                if part
            )
        parameters.append(param)
    if parameters:
        op["parameters"] = parameters
    body_params = [p for p in route.params if p.location == "body"]
    if body_params:
        op["requestBody"] = {
            "required": True,
            "content": {
                JSON: {
                    "schema": _ref("AccessRequest"),
                    "example": {p.name: p.example for p in body_params},
                }
            },
        }

    rate_headers = {n: _h(n) for n in ("X-RateLimit-Limit", "X-RateLimit-Remaining")}
    rate_headers["X-RateLimit-Reset"] = _h("X-RateLimit-Reset")
    ok_headers = {"ETag": _h("ETag"), "Cache-Control": _h("Cache-Control")}
    if keyed:
        ok_headers.update(rate_headers)
    if route.license == "odbl":
        ok_headers["Link"] = _h("Link")
    content = {JSON: {"schema": _ref(route.response), "example": examples[route.response]}}
    for download in route.downloads:
        if download.suffix in DOWNLOAD_SUFFIXES:
            ok_headers["Content-Disposition"] = _h("Content-Disposition")
        content[MEDIA_TYPES[download.suffix]] = {
            "schema": {"type": "string"},
            "example": _rows_example(download, examples[download.rows]),
        }
    responses: dict[str, Any] = {}
    if route.method == "POST":
        responses[str(route.status)] = {
            "description": messages["request_stored"].about,
            "content": content,
        }
    else:
        responses["200"] = {"description": "OK", "headers": ok_headers, "content": content}
        responses["304"] = {
            "description": "Not Modified (the If-None-Match ETag still matches).",
            "headers": {"ETag": _h("ETag"), **(rate_headers if keyed else {})},
        }
    if body_params:
        responses["400"] = _error_response(_pick(messages, "body_unreadable"))
    if keyed:
        responses["401"] = _error_response(_pick(messages, "key_missing"))
        responses["403"] = _error_response(_pick(messages, "key_invalid", "key_revoked"))
    if route.file and route.not_found != MESSAGES["not_found"].detail:
        example_values = {p.name: p.example for p in route.params}
        detail = route.detail_for(example_values)
        missing = {"not_found": Message(404, detail, "No such resource.")}
        if route.filter is not None:
            unknown = route.unknown_detail({**example_values, route.filter.param: "unbekannt"})
            missing["unknown_code"] = Message(404, unknown, "No such parameter code.")
        responses["404"] = _error_response(missing, rate_headers if keyed else None)
    if body_params:
        responses["413"] = _error_response(_pick(messages, "body_too_large"))
    if any(p.can_fail for p in route.params):
        responses["422"] = {
            "description": "Invalid parameters: every problem, in FastAPI's format.",
            "content": {
                JSON: {
                    "schema": _ref("HTTPValidationError"),
                    "example": _validation_example(route),
                }
            },
        }
    if keyed:
        quota = messages["quota_used_up"]
        reset = dt.datetime.combine(EXAMPLE_DAY, dt.time(0), tzinfo=ZoneInfo(TIMEZONE))
        filled = fill(quota.detail, {"reset": reset.isoformat(), "retry_after": 3600})
        responses["429"] = _error_response(
            {"quota_used_up": Message(quota.status, filled, quota.about)},
            {**rate_headers, "Retry-After": _h("Retry-After")},
        )
    elif body_params:
        responses["429"] = _error_response(
            _pick(messages, "burst_limit"), {"Retry-After": _h("Retry-After")}
        )
    responses["503"] = _error_response(
        _pick(messages, "unavailable"), {"Retry-After": _h("Retry-After")}
    )
    op["responses"] = responses
    return op


def _rows_example(download: routes.Download, row: dict[str, Any]) -> str:
    """Return a file of rows: the header and the example row, as the render stage writes them."""
    if download.suffix != ".csv":
        raise ValueError(f"no example for rows of {download.suffix} files")
    return pl.DataFrame([row]).select(resources.RESOURCES[download.rows].names).write_csv()


def document(config: Config) -> Schema:
    """Return the OpenAPI 3.1.0 document of the API."""
    settings = GateSettings.from_config(config)
    examples = {**resources.examples(), **gate_examples(settings)}
    paths: dict[str, Schema] = {}
    for route in routes.ROUTES:
        paths.setdefault(route.path, {})[route.method.lower()] = _operation(
            route, examples, settings
        )
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Trinkwasserdaten API",
            "version": __version__,
            "summary": "Drinking-water quality in Germany by postal code, with limits and sources.",
            "description": (
                "Read-only JSON API. Keyed operations need a key in the "
                f"`{KEY_HEADER}` header (request one with "
                f"`POST {routes.url('access_request')}`) and allow "
                f"{settings.daily_quota} requests per key and calendar day ({TIMEZONE}). "
                "Measured values come from the suppliers' own publications (each with its "
                "document in `provenance`); they are not official data, and the "
                "classifications (`state`, `summary`) are not an official assessment. "
                "Licensing is split: the PLZ-to-zone mapping (export, the zone assignment "
                "in lookups and the PLZ list of a zone) is ODbL 1.0 and carries its "
                "attribution; measured values, history and provenance are not openly "
                "licensed."
            ),
            "contact": {"name": config.operator, "email": config.contact},
            "license": {"name": "ODbL-1.0 (PLZ-to-zone mapping)", "url": config.license_url},
        },
        "servers": [{"url": config.base_url}],
        "tags": [{"name": name, "description": about} for name, about in routes.TAGS.items()],
        "paths": paths,
        "components": {
            "schemas": schemas(),
            "headers": _components_headers(),
            "securitySchemes": {
                SECURITY_SCHEME: {
                    "type": "apiKey",
                    "in": "header",
                    "name": KEY_HEADER,
                    "description": f"A key such as `{config.key_prefix}` + 32 characters.",
                }
            },
        },
    }


def gate_examples(settings: GateSettings) -> dict[str, Schema]:
    """Return examples of the gate's own bodies, in the gate's words.

    The documents' examples come from their declarations; tests check that every example
    validates against its schema.
    """
    return {
        "AccessRequestAccepted": {
            "detail": settings.messages()["request_stored"].detail,
            "request_id": EXAMPLE_REQUEST_ID,
            "status": "pending",
        },
    }
