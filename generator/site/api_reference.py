"""The API reference page, made at build time from the OpenAPI document.

The page shows what `/v1/openapi.json` says (operations, parameters, responses with their
examples, schemas with their fields) as plain semantic HTML: readable without JavaScript,
by screen readers and in print. The document is written in English for developers; the
page frames it in German. What a person reads first is German: the purpose of each
operation and its parameters come from the route table (`generator.api.routes`), what each
status and header means is kept here, keyed by the document's names. An operation,
parameter, status or header without German words fails the build instead of showing
English. The schemas' field descriptions stay English, marked `lang="en"`.
"""

from __future__ import annotations

import json
from typing import Any

from markupsafe import Markup, escape

from generator.api import routes
from generator.api.fields import ENUM_VALUES

Schema = dict[str, Any]

STATUSES_DE = {
    "200": "Erfolg.",
    "202": "Angenommen: der Antrag ist gespeichert.",
    "304": "Nicht geändert: das ETag aus `If-None-Match` gilt noch.",
    "400": "Der Body ist nicht lesbar (z. B. kein UTF-8).",
    "401": "Kein API-Schlüssel im Header.",
    "403": "Der Schlüssel ist unbekannt oder widerrufen.",
    "404": "Diese Ressource gibt es nicht.",
    "413": "Der Body ist zu groß.",
    "422": "Ungültige Parameter: jedes Problem, im Format von FastAPI.",
    "429": "Zu viele Anfragen: das Tageskontingent ist aufgebraucht, oder zu viele Anträge "
    "von einer Adresse.",
    "503": "Der Server kann gerade nicht sicher antworten (z. B. keine freien Dateien oder ein "
    "Speicherfehler): später erneut versuchen, nach `Retry-After` Sekunden.",
}

HEADERS_DE = {
    "ETag": "Kennung dieser Fassung; als `If-None-Match` zurückschicken, dann kommt 304, "
    "solange sich nichts geändert hat.",
    "Cache-Control": "`public` für offene, `private` für Abfragen mit Schlüssel.",
    "X-RateLimit-Limit": "Abfragen je Schlüssel und Tag.",
    "X-RateLimit-Remaining": "Heute noch übrige Abfragen dieses Schlüssels.",
    "X-RateLimit-Reset": "Wann das Kontingent wieder voll ist (nächste Mitternacht, "
    "deutsche Zeit), in Unix-Sekunden.",
    "Retry-After": "Sekunden bis zu einem neuen Versuch.",
    "Link": '`<Lizenz-URL>; rel="license"` bei Antworten unter ODbL.',
    "Content-Disposition": "`attachment; filename=...` beim CSV-Download.",
}

LOCATIONS_DE = {"path": "Pfad", "query": "Query", "header": "Header", "body": "Body"}

_PREFIX = "#/components/"


def _code_spans(text: str) -> Markup:
    """Escape `text`, turning `backticked` parts into <code> (the document's Markdown)."""
    parts = text.split("`")
    return Markup("").join(
        Markup("<code>{}</code>").format(p) if i % 2 else escape(p) for i, p in enumerate(parts)
    )


def _german(table: dict[str, str], key: str, what: str) -> Markup:
    if not table.get(key):
        raise KeyError(f"the API reference has no German words for {what} {key!r}")
    return _code_spans(table[key])


def _route_german(operation_id: str) -> tuple[dict[str, str], dict[str, str]]:
    """Return the German summary and description of an operation, and of its parameters."""
    route = routes.route(operation_id)
    texts = {"summary": route.summary_de, "description": route.description_de}
    return texts, {p.name: p.description_de for p in route.params}


def schema_anchor(name: str) -> str:
    return f"schema-{name}"


def operation_anchor(operation_id: str) -> str:
    return f"op-{operation_id}"


def _ref_link(ref: str) -> Markup:
    name = ref.removeprefix(_PREFIX + "schemas/")
    return Markup('<a href="#{}"><code>{}</code></a>').format(schema_anchor(name), name)


def type_of(schema: Schema) -> Markup:
    """Return a schema's type as short markup: JSON type names, links to named schemas."""
    if "$ref" in schema:
        return _ref_link(schema["$ref"])
    if "oneOf" in schema:
        return Markup(" | ").join(type_of(s) for s in schema["oneOf"])
    kinds = schema.get("type")
    if kinds is None:
        return Markup("<code>{}</code>").format("beliebig")
    names = kinds if isinstance(kinds, list) else [kinds]
    out = []
    for name in names:
        if name == "array":
            out.append(Markup("Liste aus {}").format(type_of(schema.get("items", {}))))
        else:
            suffix = f" ({schema['format']})" if name == "string" and "format" in schema else ""
            out.append(Markup("<code>{}</code>{}").format(name, suffix))
    return Markup(" | ").join(out)


def rules_of(schema: Schema) -> list[Markup]:
    """Return a schema's constraints in German words."""
    words = {
        "minLength": "mindestens {} Zeichen",
        "maxLength": "höchstens {} Zeichen",
        "minimum": "ab {}",
        "maximum": "bis {}",
    }
    rules = [Markup(w).format(schema[k]) for k, w in words.items() if k in schema]
    if "pattern" in schema:
        rules.append(Markup("Muster <code>{}</code>").format(schema["pattern"]))
    if "default" in schema:
        rules.append(Markup("Vorgabe <code>{}</code>").format(schema["default"]))
    if "const" in schema:
        rules.append(Markup("immer <code>{}</code>").format(schema["const"]))
    enum = schema.get("enum") or schema.get("items", {}).get("enum")
    if enum:
        values = Markup(", ").join(
            Markup("<code>{}</code>").format("null" if v is None else v) for v in enum
        )
        rules.append(Markup("einer der Werte {}").format(values))
    return rules


def _example(value: Any) -> str:
    return (
        value
        if isinstance(value, str)
        else json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True)
    )


def _curl(path: str, method: str, op: Schema, server: str) -> str:
    """Return an example request with the document's parameter examples."""
    query, headers = [], []
    for p in op.get("parameters", []):
        if p["in"] == "path":
            path = path.replace("{" + p["name"] + "}", str(p["example"]))
        elif p["in"] == "query" and p.get("required"):
            query.append(f"{p['name']}={p['example']}")
        elif p["in"] == "header":
            headers.append(f'-H "{p["name"]}: {p["example"]}"')
    url = server + path + ("?" + "&".join(query) if query else "")
    parts = ["curl"]
    if method != "get":
        parts.append(f"-X {method.upper()}")
    parts += headers
    body = op.get("requestBody", {}).get("content", {}).get("application/json")
    if body:
        parts.append('-H "Content-Type: application/json"')
        parts.append("-d '" + json.dumps(body["example"], ensure_ascii=False) + "'")
    parts.append(f'"{url}"')
    return " ".join(parts)


def _responses(op: Schema) -> list[dict[str, Any]]:
    out = []
    for status, response in op["responses"].items():
        content = response.get("content", {})
        examples = []
        for media_type, media in content.items():
            if "example" in media:
                examples.append({"media_type": media_type, "text": _example(media["example"])})
            for name, ex in media.get("examples", {}).items():
                examples.append(
                    {"media_type": f"{media_type}, {name}", "text": _example(ex["value"])}
                )
        schemas = {type_of(m["schema"]) for m in content.values() if "schema" in m}
        out.append(
            {
                "status": status,
                "meaning": _german(STATUSES_DE, status, "the status"),
                "media_types": list(content),
                "schema": Markup(", ").join(sorted(schemas)),
                "headers": sorted(response.get("headers", {})),
                "examples": examples,
            }
        )
    return out


def operations(document: Schema) -> list[dict[str, Any]]:
    """Return every operation of the document, in the document's path order."""
    server = document["servers"][0]["url"]
    out = []
    for path, methods in document["paths"].items():
        for method, op in methods.items():
            ident = op["operationId"]
            texts, params_de = _route_german(ident)
            params = [
                {
                    "name": p["name"],
                    "location": LOCATIONS_DE[p["in"]],
                    "type": type_of(p["schema"]),
                    "required": p["required"],
                    "rules": rules_of(p["schema"]),
                    "description": _german(params_de, p["name"], "the parameter"),
                    "example": p.get("example"),
                }
                for p in op.get("parameters", [])
            ]
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            body_fields = []
            if body:
                schema = _resolve(document, body["schema"])
                for name, field in schema["properties"].items():
                    body_fields.append(
                        {
                            "name": name,
                            "location": LOCATIONS_DE["body"],
                            "type": type_of(field),
                            "required": name in schema.get("required", []),
                            "rules": rules_of(field),
                            "description": _german(params_de, name, "the body field"),
                            "example": body["example"].get(name),
                        }
                    )
            out.append(
                {
                    "id": operation_anchor(ident),
                    "method": method.upper(),
                    "path": path,
                    "summary": _german(texts, "summary", f"the operation {ident}"),
                    "description": _german(texts, "description", f"the operation {ident}"),
                    "keyed": bool(op.get("security")),
                    "params": params + body_fields,
                    "body_schema": type_of(body["schema"]) if body else None,
                    "curl": _curl(path, method, op, server),
                    "responses": _responses(op),
                }
            )
    return out


def _resolve(document: Schema, schema: Schema) -> Schema:
    ref = schema.get("$ref")
    if ref is None:
        return schema
    resolved: Schema = document["components"]["schemas"][ref.removeprefix(_PREFIX + "schemas/")]
    return resolved


def schemas(document: Schema) -> list[dict[str, Any]]:
    """Return every component schema with its fields, sorted by name."""
    out = []
    for name, schema in sorted(document["components"]["schemas"].items()):
        required = set(schema.get("required", []))
        fields = [
            {
                "name": field,
                "type": type_of(spec),
                "required": field in required,
                "rules": rules_of(spec),
                "description": _code_spans(spec.get("description", "")),
            }
            for field, spec in sorted(schema.get("properties", {}).items())
        ]
        # A named vocabulary: its values in a table, said here once for every field of it.
        meanings = schema.get("x-enum-descriptions")
        values = (
            [
                {"value": v, "meaning": _code_spans(m)}
                for v, m in zip(schema["enum"], meanings, strict=True)
            ]
            if meanings
            else []
        )
        about = schema.get("description", "")
        if values:
            about = about.split(ENUM_VALUES)[0]
        out.append(
            {
                "id": schema_anchor(name),
                "name": name,
                "description": _code_spans(about),
                "fields": fields,
                "enum_values": values,
            }
        )
    return out


def headers(document: Schema) -> list[dict[str, Any]]:
    """Return the response headers the document declares, with German explanations."""
    return [
        {"name": name, "type": type_of(h["schema"]), "about": _german(HEADERS_DE, name, "header")}
        for name, h in sorted(document["components"]["headers"].items())
    ]


def context(document: Schema) -> dict[str, Any]:
    """Return what templates/api.html shows."""
    scheme = next(iter(document["components"]["securitySchemes"].values()))
    return {
        "operations": operations(document),
        "schemas": schemas(document),
        "headers": headers(document),
        "key_header": scheme["name"],
        "api_title": document["info"]["title"],
        "api_version": document["info"]["version"],
    }
