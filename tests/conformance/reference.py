"""A real FastAPI app declared from the route table: the reference for 422 bodies.

Each route becomes an endpoint whose parameters carry the table's constraints (Query/Path
with min_length, max_length, pattern; a Pydantic model with a field validator for the body),
so whatever FastAPI and Pydantic v2 answer for a bad request is by definition the expected
body. The check inside the e-mail validator is written independently of the gate's.
"""

from __future__ import annotations

import inspect
import re
from email.errors import HeaderParseError
from email.headerregistry import Address
from typing import Annotated, Any

from fastapi import FastAPI, Header, Path, Query
from pydantic import BaseModel, Field, create_model, field_validator

from generator.api.routes import EMAIL_MESSAGE, ROUTES, Param, Route


def _constraints(param: Param) -> dict[str, Any]:
    return {
        k: v
        for k, v in (
            ("min_length", param.min_length),
            ("max_length", param.max_length),
            ("pattern", param.pattern),
        )
        if v is not None
    }


def _one_address(value: str) -> bool:
    """One plain ASCII address, as the standard library reads it (no list, no encoded word)."""
    try:
        parsed = Address(addr_spec=value)
    except (ValueError, IndexError, HeaderParseError):
        return False
    local, _, domain = value.rpartition("@")
    label = re.compile(r"[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?")
    atom = re.compile(r"[\w!#$%&'*+/=?^`{|}~-]+", re.ASCII)
    return (
        parsed.addr_spec == value
        and value.isascii()
        and "=?" not in value
        and all(atom.fullmatch(part) for part in local.split("."))
        and all(label.fullmatch(part) for part in domain.split("."))
    )


def _body_model(route: Route) -> type[BaseModel]:
    fields: dict[str, Any] = {}
    validators: dict[str, Any] = {}
    for param in route.params:
        if param.location != "body":
            continue
        fields[param.name] = (str, Field(**_constraints(param)))
        if param.email:

            def check(cls, value: str) -> str:
                if not _one_address(value):
                    raise ValueError(EMAIL_MESSAGE)
                return value

            validators[f"check_{param.name}"] = field_validator(param.name)(check)
    name = "".join(part.title() for part in route.operation_id.split("_"))
    return create_model(name, __validators__=validators, **fields)


def _endpoint(route: Route):
    parameters = []
    for param in route.params:
        if param.location == "body":
            continue
        kind = int if param.type == "integer" else str
        constraints = _constraints(param)
        if param.location == "header":
            marker = Header(alias=param.name, **constraints)
        else:
            marker = (Path if param.location == "path" else Query)(**constraints)
        if param.required or param.location == "path":
            annotation, default = Annotated[kind, marker], inspect.Parameter.empty
        else:
            annotation, default = Annotated[kind | None, marker], param.default
        parameters.append(
            inspect.Parameter(
                param.name.replace("-", "_"),
                inspect.Parameter.KEYWORD_ONLY,
                default=default,
                annotation=annotation,
            )
        )
    if any(p.location == "body" for p in route.params):
        parameters.append(
            inspect.Parameter("body", inspect.Parameter.KEYWORD_ONLY, annotation=_body_model(route))
        )

    async def endpoint(**values: Any) -> dict[str, Any]:
        return {"operation": route.operation_id}

    endpoint.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    endpoint.__name__ = route.operation_id
    return endpoint


def reference_app() -> FastAPI:
    """Return a FastAPI app with one endpoint per route of the table."""
    app = FastAPI()
    for route in ROUTES:
        app.add_api_route(
            route.path, _endpoint(route), methods=[route.method], status_code=route.status
        )
    return app
