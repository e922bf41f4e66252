"""What `trinkwasser mapping` takes: one declaration for the click command and the run.

Each field of `MappingOptions` carries its command-line form in its metadata, so the
command's arguments and options, their defaults and the options object come from the
same place. The module needs neither the `geo` extra nor the rest of the mapping, so the
CLI can declare the command (and show `--help`) without them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

_FILE = click.Path(exists=False, dir_okay=False, path_type=Path)


def _argument(required: bool = True) -> dict[str, Any]:
    return {"argument": True, "type": _FILE, "required": required}


def _option(help: str, **click_kwargs: Any) -> dict[str, Any]:
    return {"help": help, **click_kwargs}


SHAPE_TOLERANCE = 400.0
"""Metres: the simplification of `--shape-tolerance` (a national map shows about 1 km per
pixel on a phone)."""


def default_threads() -> int:
    """Threads for the geometry work: twice the CPUs, at most 8."""
    return min(8, 2 * (os.cpu_count() or 1))


@dataclass(frozen=True)
class MappingOptions:
    """Everything `trinkwasser mapping` takes; see docs/mapping.md for each rule."""

    plz_areas: Path = field(metadata=_argument())
    out: Path = field(
        metadata=_option(
            "The plz_zones table to write (CSV); mapping.json goes beside it.",
            type=_FILE,
            required=True,
        )
    )
    zone_areas: Path | None = field(default=None, metadata=_argument(required=False))
    plz_field: str = field(
        default="plz", metadata=_option("Property of PLZ_AREAS holding the five-digit PLZ.")
    )
    zone_field: str = field(
        default="zone_id", metadata=_option("Property of ZONE_AREAS holding the integer zone id.")
    )
    zone_source: str = field(
        default="supplier",
        metadata=_option(
            "Who drew the ZONE_AREAS polygons (a feature's boundary_source overrides).",
            type=click.Choice(["supplier", "operator"]),
        ),
    )
    zone_admin: Path | None = field(
        default=None,
        metadata=_option(
            "Zones given as the administrative areas they serve: zone_id,area_key.",
            type=_FILE,
            metavar="CSV",
        ),
    )
    admin_areas: Path | None = field(
        default=None,
        metadata=_option(
            "Municipality or district areas whose key --zone-admin lists.",
            type=_FILE,
            metavar="FILE",
        ),
    )
    admin_field: str = field(
        default="AGS", metadata=_option("Property of --admin-areas holding the key.")
    )
    min_share: float = field(
        default=0.005,
        metadata=_option(
            "Intersections below this share of a PLZ are boundary noise: dropped.",
            type=click.FloatRange(0, 0.5),
        ),
    )
    population: Path | None = field(
        default=None,
        metadata=_option(
            "Zensus 2022 population grid (CSV): adds population_share.",
            type=_FILE,
            metavar="GRID",
        ),
    )
    population_edition: str = field(
        default="Zensus 2022", metadata=_option("Edition of the grid, recorded in mapping.json.")
    )
    streets: Path | None = field(
        default=None,
        metadata=_option(
            "OpenStreetMap extract (.osm.pbf or .osm) for the streets of shared PLZ.",
            type=_FILE,
            metavar="OSM_FILE",
        ),
    )
    streets_out: Path | None = field(
        default=None,
        metadata=_option(
            "The streets table to write (CSV); needs --streets.", type=_FILE, metavar="FILE"
        ),
    )
    report: Path | None = field(
        default=None,
        metadata=_option(
            "Where to write the findings (default: mapping-report.csv beside --out).",
            type=_FILE,
            metavar="FILE",
        ),
    )
    threads: int = field(
        default_factory=default_threads,
        metadata=_option(
            "Threads for the geometry work (default: twice the CPUs, at most 8).",
            type=click.IntRange(min=1),
        ),
    )

    shapes_out: Path | None = field(
        default=None,
        metadata=_option(
            "Where to write the PLZ areas simplified for the map (default: plz_shapes.csv "
            "beside --out).",
            type=_FILE,
            metavar="FILE",
        ),
    )
    shape_tolerance: float = field(
        default=SHAPE_TOLERANCE,
        metadata=_option(
            "Metres the map's PLZ areas are simplified by (neighbours keep shared edges).",
            type=click.FloatRange(min=0, min_open=True),
        ),
    )
    plz_land_field: str | None = field(
        default=None,
        metadata=_option(
            "Property of PLZ_AREAS naming the Land (state): the map then draws Länder outlines."
        ),
    )

    @property
    def report_path(self) -> Path:
        return self.report or self.out.with_name("mapping-report.csv")

    @property
    def shapes_path(self) -> Path:
        return self.shapes_out or self.out.with_name("plz_shapes.csv")

    @property
    def provenance_path(self) -> Path:
        return self.out.with_name("mapping.json")

    @classmethod
    def from_cli(cls, values: dict[str, Any]) -> MappingOptions:
        """Return the options from the command's parsed values (left out: the default)."""
        return cls(**{k: v for k, v in values.items() if v is not None})


def click_params(command: F) -> F:
    """Decorate a click command with an argument or option per field of `MappingOptions`.

    Arguments come first, in field order; options show their default when it is a plain
    value (a computed default, such as the thread count, is said in the help).
    """
    declared = fields(MappingOptions)
    arguments = [f for f in declared if f.metadata.get("argument")]
    options = [f for f in declared if not f.metadata.get("argument")]
    # click applies decorators bottom-up: the last applied is the first parameter.
    for f in reversed(options):
        kwargs = {k: v for k, v in f.metadata.items()}
        flag = "--" + f.name.replace("_", "-")
        if f.default is not MISSING and f.default is not None:
            kwargs.update(default=f.default, show_default=True)
        command = click.option(flag, f.name, **kwargs)(command)
    for f in reversed(arguments):
        kwargs = {k: v for k, v in f.metadata.items() if k != "argument"}
        command = click.argument(f.name, **kwargs)(command)
    return command
