"""Where a build keeps what it needs beside the published tree, and what it keeps there.

`build` -> `build-state/` beside it. Every file and folder of that folder is declared once
here (`STATE_FILES`: its name, format, version, the module that writes it and those that
read it), as the route table declares the routes; the modules that write or read one take
its path from its declaration (`StateFile.path`), and a test compares a built state folder
with the declaration both ways (`tests/test_build_state.py`).

Free of polars, like `generator.incremental.allocator`, which looks here before polars is imported.
"""

from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass, field
from pathlib import Path


def state_dir(out: Path) -> Path:
    """Return the build's own directory for a tree: `build` -> `build-state` beside it."""
    out = Path(out).absolute()
    return out.parent / (out.name + "-state")


def staging_dir(out: Path) -> Path:
    """Return where the tree a swap replaced waits for the next build: `.build.staging`."""
    out = Path(out).absolute()
    return out.with_name(f".{out.name}.staging")


@dataclass(frozen=True)
class StateFile:
    """One file or folder of `build-state/`."""

    name: str
    """Its name in `build-state/`."""
    format: str
    """How it is encoded, in words."""
    writer: str
    """The module that writes it."""
    readers: tuple[str, ...]
    """The modules that read it."""
    about: str
    """What it holds, and what the next build does with it."""
    version: int | None = None
    """The format number it carries: a file of another number is not read (None: the code
    digest in it decides, or nothing older exists)."""
    members: tuple[str, ...] = ()
    """A folder: the patterns (`fnmatch`) of the files in it. Empty: a file."""
    optional: str = ""
    """When a build leaves it out (empty: every finished build leaves it)."""

    @property
    def is_folder(self) -> bool:
        return bool(self.members)

    def path(self, out: Path) -> Path:
        """Return where it is for the tree `out`."""
        return state_dir(out) / self.name

    def holds(self, name: str) -> bool:
        """Whether a folder's file may be called `name`."""
        return any(fnmatch.fnmatchcase(name, pattern) for pattern in self.members)

    def member(self, out: Path, name: str) -> Path:
        """Return where a folder's file `name` is; a name it does not declare is an error."""
        if not self.holds(name):
            raise ValueError(f"{self.name}/ declares no file {name!r}")
        return self.path(out) / name


MANIFEST = StateFile(
    "manifest.sha256",
    "text: a `#` line with the build's settings as JSON, then `sha256sum` lines",
    writer="generator.output.tree",
    readers=("generator.output.tree", "generator.build"),
    about="The SHA-256 of every file of the tree, keyed files included (never published): "
    "which files changed, and a build whose inputs are the same does nothing.",
)
STAGING_MANIFEST = StateFile(
    "staging.sha256",
    "text, as `manifest.sha256`",
    writer="generator.output.tree",
    readers=("generator.output.tree",),
    about="What `.build.staging` holds: the tree the last swap replaced, which the next "
    "build brings up to date in place.",
    optional="only once a build replaced a tree that had a manifest",
)
ZONES = StateFile(
    "zones.parquet",
    "Parquet; the build's keys and the series' basis in its metadata",
    writer="generator.incremental.render_plan",
    readers=("generator.incremental.render_plan", "generator.incremental.allocator"),
    about="Per zone its fingerprint, source print, values print and newest feed day, and "
    "what the build was made of: which zones to derive and render. Written last: its "
    "presence says the rest of the state is whole.",
)
PLZ = StateFile(
    "plz.parquet",
    "Parquet: plz, fingerprint",
    writer="generator.incremental.render_plan",
    readers=("generator.incremental.render_plan",),
    about="Per PLZ a fingerprint of its rows and its zones': which PLZ to render.",
)
SUPPLIERS = StateFile(
    "suppliers.parquet",
    "Parquet: supplier_id, fingerprint",
    writer="generator.incremental.render_plan",
    readers=("generator.incremental.render_plan",),
    about="Per supplier a fingerprint of its derived row: which suppliers to render.",
)
SECTIONS = StateFile(
    "sections.json",
    "JSON: section -> its files",
    writer="generator.incremental.render_plan",
    readers=("generator.incremental.render_plan",),
    about="The files of each section of `generator.output.sections`, kept whole when only "
    "the series and the documents changed.",
)
VALUES_INDEX = "index.json"
"""The index of `CURRENT_VALUES`: its runs, and the digests of the files unchanged zones read."""
CURRENT_VALUES = StateFile(
    "current_values",
    "a folder of Arrow IPC runs (zstd), and a sealed JSON index",
    writer="generator.incremental.reuse",
    readers=("generator.incremental.reuse", "generator.frames.zone_values"),
    about="Every zone's current values in runs of 100 zones, named by their zones and a "
    "digest of their bytes; the index names the runs and the digests of `zone_rows`, "
    "`zone_documents` and `national_rows`. Unchanged zones take their rows from here.",
    version=3,
    members=(VALUES_INDEX, "*-*-*.arrow"),
)
"""Each run is an Arrow IPC file, zstd (a million rows of nested limits read in half the time
Parquet takes), named by its zones and a digest of its bytes. A daily update reads of them
only what it asks for (`generator.frames.zone_values`) and encodes again only the runs with a
zone it derived (`generator.incremental.reuse`): the others are the same rows, so the same file.

Versions: 2, the index names the digests of `ZONE_ROWS` and `ZONE_DOCUMENTS` too, and is
`sealed`: a damaged number of a run's zones or rows would read the wrong rows and keep them.
3: and of `NATIONAL_ROWS`."""
ZONE_ROWS = StateFile(
    "zone_rows.parquet",
    "Parquet: zone_id, summary, checks",
    writer="generator.incremental.reuse",
    readers=("generator.incremental.reuse",),
    about="The columns of the derived zones that follow from a zone's own data.",
)
ZONE_DOCUMENTS = StateFile(
    "zone_documents.parquet",
    "Parquet",
    writer="generator.incremental.reuse",
    readers=("generator.incremental.reuse", "generator.incremental.source_prints"),
    about="Per zone and document its samples up to the build date: what the feeds, the "
    "sitemap's dates, the staleness and the source prints read instead of the series.",
)
NATIONAL_ROWS = StateFile(
    "national_rows.arrow",
    "Arrow IPC",
    writer="generator.incremental.reuse",
    readers=("generator.incremental.reuse",),
    about="Every zone's rows the map and the national feed read (`ZoneValues.national`): "
    "about one row in seventeen, which a daily update reads of the zones it keeps.",
)
READ = StateFile(
    "read",
    "a folder: per table a sealed JSON (texts, row groups' digests) and an Arrow IPC of codes",
    writer="generator.contract.memo",
    readers=("generator.contract.memo",),
    about="The series as read: the next build reads only the row groups whose digest it "
    "does not find here.",
    version=3,
    members=("*.json", "*.arrow"),
    optional="only when the series is a Parquet file",
)
"""Versions: bumped when what a memo holds changes (3: the digest of its frame's file)."""
TEMPLATES = StateFile(
    "templates",
    "a folder of Jinja bytecode, one file per template",
    writer="generator.site.compiled",
    readers=("generator.site.compiled",),
    about="The compiled templates, so the next process need not compile them; Jinja checks "
    "each against its template's source and its own version.",
    members=("*.jinja",),
)

STATE_FILES: tuple[StateFile, ...] = (
    MANIFEST,
    STAGING_MANIFEST,
    ZONES,
    PLZ,
    SUPPLIERS,
    SECTIONS,
    CURRENT_VALUES,
    ZONE_ROWS,
    ZONE_DOCUMENTS,
    NATIONAL_ROWS,
    READ,
    TEMPLATES,
)
"""Everything a finished build leaves in `build-state/`."""

_BY_NAME = {file.name: file for file in STATE_FILES}


def state_path(out: Path, name: str) -> Path:
    """Return where a declared file is: `zone_rows.parquet`, `current_values/index.json`.

    For code that names files as data (the rows kept for the next build are a list of
    names and bytes); a name the declaration does not hold is an error, not a new file.
    """
    top, _, rest = name.partition("/")
    file = _BY_NAME.get(top)
    if file is None or bool(rest) != file.is_folder:
        raise ValueError(f"build-state/ declares no {name!r}")
    return file.member(out, rest) if rest else file.path(out)


FORMER = ("manifest.json", "staging.json", "current_values.arrow")
"""Names earlier versions of the build kept there: not read, removed by the next build."""


@dataclass(frozen=True)
class Basis:
    """What a build's source prints were made of: its code and the series' row groups."""

    code: str
    schema: str
    groups: list[tuple[str, int]]
    """Each row group of the series file in order: the digest of its bytes, and its rows."""
    path: Path = field(default=Path(), compare=False)
    """The series file (not kept: the next build has its own)."""

    def to_json(self) -> str:
        return json.dumps([self.code, self.schema, self.groups])

    @classmethod
    def from_json(cls, text: str) -> Basis | None:
        try:
            code, schema, groups = json.loads(text)
            return cls(str(code), str(schema), [(str(d), int(n)) for d, n in groups])
        except (ValueError, TypeError):
            return None
