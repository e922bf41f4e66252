"""Which zones a build renders again; the others keep their files from the previous tree.

A zone's four files (its document, its series, its page, its feed) are a function of the zone's own
derived rows (its row in `zones`, its current values, its measurements and the documents
they cite, and where its values stand among every zone's, `Derived.standings`) and of
what every zone file shares: the code and templates, the settings, the
date of the build, the limits and the register, the map sources and the search index whose
versioned URL every page carries. The first is fingerprinted per zone, the second once (the
render key). A build renders the zones whose fingerprint differs from the previous build's,
and every zone when the render key differs; the files of the other zones are the previous
tree's, hard-linked. A PLZ's lookup and page and a supplier's document and page are
fingerprinted the same way, from their own rows and (for a PLZ) its zones' fingerprints. The
files that follow from neither the series nor the documents are kept whole by sections
(`generator.output.sections`). What summarises all zones' values (the map, the counts, the
national feed, the sitemap) is rendered every time.

A feed without entries is the one exception: it carries the date of the newest entry of any
zone. Each zone's newest entry day is kept with its fingerprint, so a build knows that date
from the rendered zones' entries and the kept zones' days, and renders the kept zones' empty
feeds again when it moved (`zone_feeds`).

The fingerprints are hashes of the derived frames, so an input change that does not reach a
zone's derived rows (a measurement of another zone, a typo in an unrelated table) does not
render it again, and one that does is always seen, however it got there.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import hashlib
import json
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

import polars as pl

from generator import derive
from generator.api import routes
from generator.derive import Derived
from generator.frames.zone_values import ZoneValues
from generator.incremental.hashes import frame_digest, grouped, joined, per_zone, row_hash
from generator.output import state as build_state
from generator.output.atomic import Content, Prepared, atomic_write, prepare_again
from generator.output.state import Basis
from generator.site import feeds
from generator.site import urls as site_urls
from generator.site.feeds import ZoneFeeds

FEED_DAY = "feed_day"
STATE_COLUMNS = ["zone_id", "fingerprint", "source", "values", FEED_DAY]


def zone_paths(zone_id: int) -> tuple[str, str, str, str]:
    """Return the files of one zone: its API document, its series, its page, its feed."""
    api, series, page, feed = (t.format(int(zone_id)) for t in _templates("zone_id"))
    return api, series, page, feed


def plz_paths(plz: str) -> tuple[str, str]:
    """Return the files of one PLZ: its lookup and its page."""
    lookup, page = (t.format(plz) for t in _templates("plz"))
    return lookup, page


def paths_of(keys: pl.Series, feeds: bool = True) -> list[str]:
    """Return the files of many zones (`zone_id`), PLZ (`plz`) or suppliers (`supplier_id`).

    Key by key, as `zone_paths` and `plz_paths`; a supplier's are its document and page.

    Without `feeds`, a zone's feed is left out.
    """
    templates = _templates(keys.name)[: None if feeds or keys.name != "zone_id" else -1]
    files = keys.to_frame().select(
        pl.format(t, pl.col(keys.name)).alias(str(i)) for i, t in enumerate(templates)
    )
    return files.select(pl.concat_list(pl.all())).to_series().explode().to_list()


_SOME = {"zone_id": "918273645", "plz": "98765", "supplier_id": "918273645"}
"""A key of each kind that no path holds but where the key goes."""


@functools.cache
def _templates(kind: str) -> tuple[str, ...]:
    """Return the files of a zone, PLZ or supplier with `{}` for its key (`paths_of`).

    A build asks for the files of every zone and PLZ twice; an id is a whole number and a
    PLZ five digits, which a path holds as they are, so the routes are asked once.
    """
    key = _SOME[kind]
    paths: tuple[str, ...]
    if kind == "plz":
        paths = (routes.file_path("lookup", plz=key), site_urls.file_path("plz", plz=key))
    elif kind == "supplier_id":
        paths = (
            routes.file_path("supplier", supplier_id=int(key)),
            site_urls.file_path("supplier", supplier_id=int(key)),
        )
    else:
        paths = (
            routes.file_path("zone", zone_id=int(key)),
            routes.file_path("zone_measurements", zone_id=int(key)),
            site_urls.file_path("zone", zone_id=int(key)),
            site_urls.file_path("zone_feed", zone_id=int(key)),
        )
    return tuple(p.replace(key, "{}") for p in paths)


def fingerprints(
    d: Derived, sources: pl.DataFrame, known: pl.DataFrame | None = None
) -> pl.DataFrame:
    """Return every zone's `zone_id`, `fingerprint`, `source` print and `values` hash.

    `sources` are the zones' `source_prints`; `known` the `values` hashes of the zones
    whose current values the previous build derived (`generator.incremental.reuse`): the others'
    current values are hashed here.
    """
    # The zones not known are those derived: their rows are held (every zone's, without
    # `known`), the others' may still be in the previous build's files.
    values = d.current_values.held
    if known is not None and known.height:
        values = values.filter(~pl.col("zone_id").is_in(known["zone_id"].implode()))
    hashed = per_zone(values, "values")
    if known is not None:
        hashed = pl.concat([known.select(hashed.columns).cast(hashed.schema), hashed])
    # Where a zone's values stand among all zones' (`generator.compare`) moves with other
    # zones' values: a zone whose standing moved is rendered again.
    frame = (
        per_zone(d.zones, "_zone")
        .join(hashed, on="zone_id", how="left", maintain_order="left")
        .join(sources, on="zone_id", how="left", maintain_order="left")
        .join(per_zone(d.standings, "_standing"), on="zone_id", how="left", maintain_order="left")
    )
    return frame.select(
        "zone_id",
        joined(["_zone", "values", "source", "_standing"]).alias("fingerprint"),
        "source",
        "values",
    )


def plz_fingerprints(d: Derived, zones: pl.DataFrame) -> pl.DataFrame:
    """Return `plz` and `fingerprint` of every PLZ of the lookups.

    A PLZ's lookup and page show its row of the lookups, its streets, its places and what
    its zones' files show, in the order of its zones: hashes of its own rows, then the
    fingerprints of its zones (`zones`, as `fingerprints` returns them).
    """
    own = [
        _per_plz(frame, name)
        for frame, name in ((d.lookups, "_lookup"), (d.streets, "_streets"), (d.places, "_places"))
    ]
    served = (
        d.lookups.select("plz", pl.col("zones").list.eval(pl.element().struct.field("zone_id")))
        .explode("zones")
        .join(
            zones.select(pl.col("zone_id").alias("zones"), "fingerprint"),
            on="zones",
            how="left",
            maintain_order="left",
        )
        .group_by("plz", maintain_order=True)
        .agg(pl.col("fingerprint").fill_null("-").str.join(",").alias("_zones"))
    )
    frame = d.lookups.select("plz")
    for part in (*own, served):
        frame = frame.join(part, on="plz", how="left", maintain_order="left")
    return frame.select(
        "plz", joined(["_lookup", "_streets", "_places", "_zones"]).alias("fingerprint")
    )


def supplier_fingerprints(d: Derived) -> pl.DataFrame:
    """Return `supplier_id` and `fingerprint` of every supplier.

    A supplier's document and page show its row of `Derived.suppliers` (its zones and
    documents nested in it) and what every page shares (the render key).
    """
    return grouped(d.suppliers.select("supplier_id", *row_hash()), "supplier_id", "fingerprint")


def _per_plz(frame: pl.DataFrame, name: str) -> pl.DataFrame:
    """One hash per PLZ of its rows in their order (tables of a few thousand rows)."""
    return grouped(frame.select("plz", *row_hash()), "plz", name)


def render_key(d: Derived, shared: bytes) -> str:
    """Hash what every zone's files share besides the zone's own rows.

    `shared` carries what the caller knows of the build: the digest of the code, the
    settings and the date, and the search index (its version is in every page).
    """
    h = hashlib.sha256(shared)
    h.update(pl.__version__.encode())  # the row hashes are polars' own
    for frame in (d.limits, d.parameters, d.explanations, d.hardness_ranges):
        h.update(frame_digest(frame).encode())
    h.update(repr(d.sources).encode())
    return h.hexdigest()


@dataclass(frozen=True)
class State:
    """What the previous build left beside its tree about its zones (`build-state/`)."""

    render_key: str
    derive_key: str
    """`generator.incremental.reuse.derive_key` of the previous build's data."""
    zones: pl.DataFrame
    """`STATE_COLUMNS` of every zone."""
    plz: pl.DataFrame
    """`plz` and `fingerprint` of every PLZ."""
    sections: dict[str, list[str]]
    """The files of each section of the previous tree (`generator.output.sections`)."""
    suppliers: pl.DataFrame
    """`supplier_id` and `fingerprint` of every supplier."""
    basis: Basis | None = None
    """What the zones' source prints were made of (`generator.incremental.source_prints`)."""


@dataclass(frozen=True)
class Plan:
    key: str
    fingerprints: pl.DataFrame
    render: frozenset[int] | None
    """The zones to render; None: all of them."""
    keep: tuple[int, ...] = ()
    """The zones whose files come from the previous tree."""
    previous: pl.DataFrame | None = None
    """The previous build's state: `STATE_COLUMNS` of every zone."""
    plz_prints: pl.DataFrame | None = None
    """`plz_fingerprints` of this build."""
    render_plz: frozenset[str] | None = None
    """The PLZ whose lookup and page are rendered; None: all of them."""
    keep_plz: tuple[str, ...] = ()
    """The PLZ whose lookup and page come from the previous tree."""
    sections: dict[str, list[str]] | None = None
    """The sections whose files come from the previous tree, with their files."""
    supplier_prints: pl.DataFrame | None = None
    """`supplier_fingerprints` of this build."""
    render_suppliers: frozenset[int] | None = None
    """The suppliers whose document and page are rendered; None: all of them."""

    @property
    def full(self) -> bool:
        return self.render is None


def keeps_files(state: State | None, key: str) -> TypeGuard[State]:
    """Whether a build of render key `key` may keep files of the build that left `state`.

    Else it renders every file (`plan`): what all zone files share has changed.
    """
    return state is not None and state.render_key == key


def plan(
    prints: pl.DataFrame,
    plz_prints: pl.DataFrame,
    supplier_prints: pl.DataFrame,
    key: str,
    derive_key: str,
    published: Collection[str],
    state: State | None,
    force: bool = False,
) -> Plan:
    """Decide which zones, PLZ and sections to render: all, or those whose inputs changed.

    `prints` are the zones' `fingerprints`, `plz_prints` the PLZ's `plz_fingerprints`,
    `supplier_prints` the suppliers' `supplier_fingerprints`; `key` the render key and
    `derive_key` the derive key of this build; `state` what the previous build left;
    `published` the files of the previous tree a build can keep (`write.available`): there,
    or in the staging tree as published; a file lost from both is rendered again rather
    than trusted.
    """
    if force or not keeps_files(state, key):
        return Plan(key, prints, None, plz_prints=plz_prints, supplier_prints=supplier_prints)
    keep = _unchanged(prints, state.zones, "zone_id", published)
    keep_plz = _unchanged(plz_prints, state.plz, "plz", published)
    suppliers = supplier_prints["supplier_id"].to_list()
    kept = _unchanged(supplier_prints, state.suppliers, "supplier_id", published)
    sections = {}
    if state.derive_key == derive_key:
        sections = {
            name: paths
            for name, paths in state.sections.items()
            if all(p in published for p in paths)
        }
    return Plan(
        key,
        prints,
        frozenset(prints["zone_id"].to_list()) - set(keep),
        tuple(keep),
        state.zones,
        plz_prints,
        frozenset(plz_prints["plz"].to_list()) - set(keep_plz),
        tuple(keep_plz),
        sections,
        supplier_prints,
        frozenset(suppliers) - set(kept),
    )


def _unchanged(
    prints: pl.DataFrame, before: pl.DataFrame, key: str, published: Collection[str]
) -> list[Any]:
    """Return the keys whose fingerprint is the previous one and whose files are all there."""
    compared = prints.join(before, on=key, how="left", suffix="_before")
    same = compared.filter(pl.col("fingerprint") == pl.col("fingerprint_before"))[key]
    keys, paths = same.to_list(), paths_of(same)
    there = [p in published for p in paths]
    n = len(_templates(key))
    return [k for i, k in enumerate(keys) if all(there[i * n : (i + 1) * n])]


def zone_feeds(d: Derived, zones: Derived, as_of: dt.date, p: Plan) -> tuple[ZoneFeeds, Plan]:
    """Choose the zone feeds to render; return them and `p` with each zone's newest feed day.

    A feed is the zone's like its other files, but for its date when it has no entries: the
    newest entry of any zone (`feeds.quiet_day`). The newest days of the kept zones are the
    previous build's (in the state), so only the rendered zones' entries are computed; when
    the date of an empty feed moved, the kept zones' empty feeds are rendered again too.
    """
    entries = feeds.zone_entries(zones, as_of)
    rendered = zones.zones.select("zone_id", "name")
    days = rendered.select("zone_id").join(
        feeds.newest_days(entries), on="zone_id", how="left", maintain_order="left"
    )
    kept = (
        pl.DataFrame({"zone_id": p.keep}, schema={"zone_id": days["zone_id"].dtype})
        .join(p.previous, on="zone_id", how="left", maintain_order="left")
        .select(days.columns)
        if p.previous is not None
        else days.clear()
    )
    days = pl.concat([kept, days]).sort("zone_id")
    quiet = feeds.quiet_day(days[FEED_DAY].max(), as_of)
    chosen = rendered
    if p.previous is not None and quiet != feeds.quiet_day(p.previous[FEED_DAY].max(), as_of):
        silent = kept.filter(pl.col(FEED_DAY).is_null())["zone_id"].implode()
        empty = d.zones.filter(pl.col("zone_id").is_in(silent)).select(rendered.columns)
        chosen = pl.concat([rendered, empty]).sort("zone_id")
    state = p.fingerprints.join(days, on="zone_id", how="left", maintain_order="left")
    return ZoneFeeds(chosen, entries, quiet), dataclasses.replace(p, fingerprints=state)


def restrict(d: Derived, zone_ids: frozenset[int] | None) -> Derived:
    """Return `d` with only the given zones' rows of the per-zone frames (all when None).

    The series of those zones is read (`derive.series_of`).
    """
    if zone_ids is None:
        return derive.series_of(d)
    ids = pl.Series("zone_id", sorted(zone_ids), dtype=d.zones["zone_id"].dtype)
    chosen = pl.col("zone_id").is_in(ids.implode())
    return dataclasses.replace(
        derive.series_of(d, ids),
        zones=d.zones.filter(chosen),
        current_values=ZoneValues(d.current_values.of(ids)),
        zone_documents=d.zone_documents.filter(chosen),
    )


def state_path(out: Path) -> Path:
    return build_state.ZONES.path(out)


def read_state(out: Path) -> State | None:
    """Return what the previous build left about its zones, if it left it whole."""
    try:
        frame = pl.read_parquet(state_path(out))
        meta = pl.read_parquet_metadata(state_path(out))
        plz = pl.read_parquet(build_state.PLZ.path(out))
        sections = json.loads(build_state.SECTIONS.path(out).read_text(encoding="utf-8"))
        suppliers = pl.read_parquet(build_state.SUPPLIERS.path(out))
    except (OSError, ValueError, pl.exceptions.PolarsError):
        return None
    if not {"render_key", "derive_key"} <= set(meta) or frame.columns != STATE_COLUMNS:
        return None
    if plz.columns != ["plz", "fingerprint"] or not _is_sections(sections):
        return None
    if suppliers.columns != ["supplier_id", "fingerprint"]:
        return None
    basis = Basis.from_json(meta["basis"]) if "basis" in meta else None
    return State(meta["render_key"], meta["derive_key"], frame, plz, sections, suppliers, basis)


def _is_sections(value: object) -> bool:
    return isinstance(value, dict) and all(
        isinstance(paths, list) and all(isinstance(p, str) for p in paths)
        for paths in value.values()
    )


def write_state(
    out: Path,
    p: Plan,
    derive_key: str,
    sections: dict[str, list[str]] | None = None,
    basis: Basis | None = None,
    prepared: Prepared | None = None,
) -> None:
    """Record the fingerprints of the tree just published (after the swap).

    `sections` are the files of each section of the tree (`generator.output.sections`), `basis`
    what the source prints were made of, `prepared` the fingerprints' files if
    `prepare_state` wrote them already. The zones' state is written last: its presence
    says the rest of `build-state/` is whole.
    """
    text = json.dumps(sections or {}, ensure_ascii=False, sort_keys=True) + "\n"
    atomic_write(build_state.SECTIONS.path(out), text.encode())
    (prepare_state(out, p, derive_key, basis) if prepared is None else prepared).publish()


def prepare_state(out: Path, p: Plan, derive_key: str, basis: Basis | None = None) -> Prepared:
    """Write the fingerprints of the PLZ, suppliers and zones beside the state, not in place.

    `write_state` renames them, the zones' last. A daily update writes them while its files
    render.
    """
    files: list[tuple[Path, Content]] = [
        (file.path(out), frame.write_parquet)
        for file, frame in (
            (build_state.PLZ, p.plz_prints),
            (build_state.SUPPLIERS, p.supplier_prints),
        )
        if frame is not None
    ]
    zones = p.fingerprints.select(STATE_COLUMNS)
    meta = {"render_key": p.key, "derive_key": derive_key}
    if basis is not None:
        meta["basis"] = basis.to_json()
    files.append((state_path(out), lambda path: zones.write_parquet(path, metadata=meta)))
    return prepare_again(files)


def forget_state(out: Path) -> None:
    """Drop the fingerprints before the tree changes.

    A crash between the swap and `write_state` then means a full render next time, never
    files of another tree.
    """
    state_path(out).unlink(missing_ok=True)
