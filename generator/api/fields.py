"""How the fields of a response document are declared, and what is made from a declaration.

A `Resource` lists the fields of one JSON object the API returns (`generator.api.resources`
declares them all). From that one list come the JSON Schema in the OpenAPI document, its
example, the columns the render stage encodes (`generator.output.encode.document`), and for the
export the CSV header and the Data Package schema. Adding a field to a document therefore
means: a column in the derived frame, and one `Field` here.

Plain data: nothing here imports polars, the build, the site or a gate.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

REF = "#/components/schemas/"
LINK = "Path of the related resource in this API."


@dataclass(frozen=True)
class Field:
    name: str
    type: str
    """JSON type: string | integer | number | boolean | object | array."""
    description: str
    example: Any = None
    """For objects and arrays of objects, None means: the example of the referenced resource."""
    nullable: bool = False
    format: str | None = None  # date | uri
    pattern: str | None = None
    minimum: float | None = None
    maximum: float | None = None
    enum: Mapping[str, str] | None = None
    """Allowed values and what each means (the meanings go into the description)."""
    ref: str | None = None
    """Name of the resource an object field holds, or an array field's items."""
    items: Field | None = None
    """The item of an array of plain values, or the value of an object keyed by code
    (`keyed`); its name is unused."""


@dataclass(frozen=True)
class Resource:
    name: str
    """Name of the component schema in the OpenAPI document."""
    description: str
    fields: tuple[Field, ...]
    """In the order of the CSV and the Data Package (JSON objects have sorted keys)."""

    def __post_init__(self) -> None:
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.name} declares a field twice: {names}")

    @property
    def names(self) -> list[str]:
        return [f.name for f in self.fields]

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)


# ---------------------------------------------------------------------------- declaring


def string(name: str, description: str, example: Any, **kw: Any) -> Field:
    return Field(name, "string", description, example, **kw)


def integer(name: str, description: str, example: Any, **kw: Any) -> Field:
    return Field(name, "integer", description, example, **kw)


def number(name: str, description: str, example: Any, **kw: Any) -> Field:
    return Field(name, "number", description, example, **kw)


def boolean(name: str, description: str, example: Any, **kw: Any) -> Field:
    return Field(name, "boolean", description, example, **kw)


def share(name: str, description: str, example: float | None, **kw: Any) -> Field:
    """Declare a number between 0 and 1."""
    return Field(name, "number", description, example, minimum=0, maximum=1, **kw)


def date(name: str, description: str, example: Any, **kw: Any) -> Field:
    return Field(name, "string", description, example, format="date", **kw)


def uri(name: str, description: str, example: Any, **kw: Any) -> Field:
    return Field(name, "string", description, example, format="uri", **kw)


def link(name: str, description: str, example: str) -> Field:
    """Declare the URL path of a related resource, made from the route table."""
    return Field(name, "string", f"{description} {LINK}", example)


def one(name: str, resource: str, description: str, **kw: Any) -> Field:
    """Declare an object field holding one `resource`."""
    return Field(name, "object", description, ref=resource, **kw)


def many(name: str, items: str | Field, description: str, example: Any = None) -> Field:
    """Declare an array field: of `items` resources (by name), or of plain values like `items`."""
    if isinstance(items, str):
        return Field(name, "array", description, example, ref=items)
    return Field(name, "array", description, example, items=items)


def keyed(name: str, values: Field, description: str, example: Any, **kw: Any) -> Field:
    """Declare an object whose keys are data (codes) and whose values are like `values`."""
    return Field(name, "object", description, example, items=values, **kw)


# ---------------------------------------------------------------------------- deriving


Enums = Mapping[str, tuple[str, Mapping[str, str]]]
"""Named vocabularies: component name -> (what the values are, each value and its meaning)."""

ENUM_VALUES = " Values: "


def _meanings(vocabulary: Mapping[str, str]) -> str:
    return "; ".join(f"`{k}`: {v.rstrip('.')}" for k, v in sorted(vocabulary.items()))


def enum_schema(about: str, vocabulary: Mapping[str, str]) -> dict[str, Any]:
    """Return the component schema of a named vocabulary: its values, each meaning in words.

    The meanings go into the description (what a reader of the document sees) and, value by
    value, into `x-enum-descriptions` (what the API reference shows as a table).
    """
    values = sorted(vocabulary)
    return {
        "type": "string",
        "enum": values,
        "description": f"{about}{ENUM_VALUES}{_meanings(vocabulary)}.",
        "x-enum-descriptions": [vocabulary[v] for v in values],
    }


def _enum_name(vocabulary: Mapping[str, str], enums: Enums) -> str | None:
    return next((name for name, (_, v) in enums.items() if dict(v) == dict(vocabulary)), None)


def _value_schema(f: Field, enums: Enums) -> dict[str, Any]:
    if f.type == "object":
        if f.items is not None:
            keys = {} if f.pattern is None else {"propertyNames": {"pattern": f.pattern}}
            return {
                "type": "object",
                **keys,
                "additionalProperties": field_schema(f.items, enums),
            }
        return {"$ref": REF + str(f.ref)}
    if f.type == "array":
        if f.ref:
            items = {"$ref": REF + f.ref}
        elif f.items is not None:
            items = _value_schema(f.items, enums)
        else:
            raise ValueError(f"array field {f.name} declares neither items nor ref")
        return {"type": "array", "items": items}
    named = None if f.enum is None else _enum_name(f.enum, enums)
    if named is not None:
        # One component per vocabulary: a generated client gets one class, not one per field.
        return {"$ref": REF + named}
    schema: dict[str, Any] = {"type": f.type}
    for key, value in (
        ("format", f.format),
        ("pattern", f.pattern),
        ("minimum", f.minimum),
        ("maximum", f.maximum),
    ):
        if value is not None:
            schema[key] = value
    if f.enum is not None:
        schema["enum"] = sorted(f.enum)
    return schema


def field_schema(f: Field, enums: Enums | None = None) -> dict[str, Any]:
    """Return the JSON Schema of one field, its description included.

    A field whose values are one of the named `enums` refers to that component; the
    meanings of the values are said there, once.
    """
    enums = enums or {}
    schema = _value_schema(f, enums)
    if f.nullable:
        if "$ref" in schema:
            schema = {"oneOf": [schema, {"type": "null"}]}
        else:
            schema["type"] = [schema["type"], "null"]
            if "enum" in schema:
                schema["enum"] = [*schema["enum"], None]
    description = f.description
    vocabulary = f.enum or (f.items.enum if f.items else None)
    if vocabulary and _enum_name(vocabulary, enums) is None:
        description += f"{ENUM_VALUES}{_meanings(vocabulary)}."
    if description:
        schema["description"] = description
    return schema


def resource_schema(resource: Resource, enums: Enums | None = None) -> dict[str, Any]:
    """Return a closed object schema: every declared field present (maybe null), no others."""
    return {
        "type": "object",
        "description": resource.description,
        "properties": {f.name: field_schema(f, enums) for f in resource.fields},
        "required": sorted(resource.names),
        "additionalProperties": False,
    }


def example(resource: Resource, registry: Mapping[str, Resource]) -> dict[str, Any]:
    """Return the example document of a resource, from the examples of its fields."""
    out: dict[str, Any] = {}
    for f in resource.fields:
        value = f.example
        if value is None and f.ref:
            nested = example(registry[f.ref], registry)
            value = [nested] if f.type == "array" else nested
        out[f.name] = value
    return out


FRICTIONLESS_TYPES = {t: t for t in ("string", "integer", "number", "boolean")}


def table_schema(resource: Resource) -> list[dict[str, str]]:
    """Return the fields of a flat resource as a Frictionless Table Schema lists them."""
    return [
        {"name": f.name, "type": FRICTIONLESS_TYPES[f.type], "description": f.description}
        for f in resource.fields
    ]
