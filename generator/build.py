"""Run the stages in order: load, derive, render, write."""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import hashlib
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import polars as pl

from generator import __version__, derive, load, render
from generator.api import routes, series, site_rules
from generator.api.settings import GateSettings, gate_dir, routes_json
from generator.config import Config, for_data
from generator.contract import provenance
from generator.contract.memo import Memo
from generator.contract.tables import MEASUREMENTS
from generator.frames import parallel
from generator.incremental import render_plan, reuse, source_prints
from generator.incremental.code_digest import code_digest, hash_files
from generator.output import state as build_state
from generator.output.atomic import Prepared, atomic_write
from generator.output.sections import Sections
from generator.output.state import Basis
from generator.output.tree import (
    TreeWriter,
    WriteReport,
    available,
    read_manifest,
    read_staging_manifest,
)
from generator.progress import StepPrinter
from generator.site import compiled, places, urls
from generator.site import pages as site
from generator.site.feeds import ZoneFeeds

API_PREFIXES = routes.api_dirs()
"""Rendered files under these count as the API in the timings, all others as the site."""


@dataclass
class BuildResult:
    out: Path
    report: WriteReport | None
    """None when the inputs were unchanged and nothing had to be done."""
    timings: dict[str, float] | None = None
    zones_rendered: int | None = None
    """How many zones had their files rendered; the others kept the previous tree's."""
    zones_kept: int = 0
    zones_derived: int | None = None
    """How many zones had their current values derived; the others kept the previous build's."""
    plz_rendered: int | None = None
    """How many PLZ had their lookup and page rendered; the others kept the previous tree's."""
    suppliers_rendered: int | None = None
    """How many suppliers had their document and page rendered; the others kept theirs."""
    sections_kept: tuple[str, ...] = ()
    """The sections whose files are the previous tree's (`generator.output.sections`), sorted."""
    warnings: pl.DataFrame | None = None
    """What the loader warned of (`load.Checked.warnings`); None when nothing was loaded."""


def input_digest(data_dir: Path, as_of: dt.date, config: Config, code: str | None = None) -> str:
    """Hash everything a build depends on: source files, reference data, options, code version.

    `code` is `code_digest(as_of, config)` when the caller has it already.
    """
    h = hashlib.sha256((code or code_digest(as_of, config)).encode())
    hash_files(
        h,
        [
            p
            # A missing directory is the loader's to report, as a problem of the data.
            for p in (Path(data_dir).iterdir() if Path(data_dir).is_dir() else ())
            if p.suffix in (".csv", ".parquet") or p.name == provenance.FILE
        ],
    )
    return h.hexdigest()


ENGINE: Final = "in-memory"
"""polars' engine for the build's lazy queries, unless the operator chose one
(`ENGINE_VARIABLE`). Every frame a build queries is in memory already; on the national
data the streaming engine's batches made the site's pages take a quarter more CPU time
(40.8 s against 32.6 s, most of it the zone pages' charts and value tables), for no less
memory."""
ENGINE_VARIABLE = "POLARS_ENGINE_AFFINITY"


@contextlib.contextmanager
def _engine() -> Iterator[None]:
    """Run the block's polars queries on `ENGINE`: the operator's choice, if any, stands."""
    if ENGINE_VARIABLE in os.environ:
        yield
        return
    with pl.Config(engine_affinity=ENGINE):
        yield


def build(
    data_dir: Path,
    out: Path,
    as_of: dt.date,
    config: Config,
    progress: StepPrinter | None = None,
    force: bool = False,
) -> BuildResult:
    """Build the tree into `out`; on SourceDataError/BuildError leave `out` as it was."""
    config = for_data(config, data_dir)
    with _engine():
        return _build(data_dir, out, as_of, config, progress, force)


def _build(
    data_dir: Path,
    out: Path,
    as_of: dt.date,
    config: Config,
    progress: StepPrinter | None,
    force: bool,
) -> BuildResult:
    """Build in three steps: plan, render and write, publish the state for the next build."""
    progress = progress or StepPrinter(enabled=False)
    out = Path(out)
    code = code_digest(as_of, config)
    digest = input_digest(data_dir, as_of, config, code)
    previous = read_manifest(out)
    if not force and previous.get("input_digest") == digest and _tree_intact(out, previous):
        progress("Inputs unchanged since the last build: nothing to do.")
        write_gate_dir(out, config)  # cheap, and restores it if it was deleted
        return BuildResult(out, None)
    clock = _Clock()
    planned = _plan(data_dir, out, as_of, config, progress, force, code, previous, clock)
    meta = {
        "input_digest": digest,
        "as_of": as_of.isoformat(),
        "version": __version__,
    }
    written = _render_and_write(planned, out, as_of, config, progress, previous, meta, clock)
    _publish_state(out, planned, written)
    clock.charge("write")  # the manifest and the swap
    clock.peaks["render"] = _peak_mib()
    # The gates' inputs (routes.json) go beside the published tree, never into it.
    write_gate_dir(out, config)
    report, plan = written.report, planned.plan
    progress(clock.summary())
    progress(
        f"Wrote {len(report.written)} file(s), kept {report.unchanged} unchanged, "
        f"removed {len(report.deleted)} stale; {report.files} files in {out}"
    )
    d = planned.derived
    return BuildResult(
        out,
        report,
        clock.timings,
        planned.zones.zones.height,
        len(plan.keep),
        d.zones.height - planned.zones_kept,
        d.lookups.height - len(plan.keep_plz),
        d.suppliers.height if plan.render_suppliers is None else len(plan.render_suppliers),
        tuple(sorted(plan.sections or ())),
        planned.warnings,
    )


@dataclass
class _Clock:
    """A build's time per stage and its peak of memory after each: its closing line."""

    timings: dict[str, float] = field(default_factory=dict)
    peaks: dict[str, float] = field(default_factory=dict)
    mark: float = field(default_factory=time.perf_counter)

    def stage(self, name: str) -> None:
        """Close stage `name`: the time since the last mark, and the peak of memory so far."""
        now = time.perf_counter()
        self.timings[name] = now - self.mark
        self.peaks[name] = _peak_mib()
        self.mark = now

    def charge(self, name: str) -> None:
        """Add the time since the last mark to `name`, and mark now."""
        now = time.perf_counter()
        self.timings[name] = self.timings.get(name, 0.0) + now - self.mark
        self.mark = now

    def summary(self) -> str:
        t, p = self.timings, self.peaks
        return (
            f"Time: load {t['load']:.1f} s, derive {t['derive']:.1f} s, render the API "
            f"{t['api']:.1f} s and the site {t['site']:.1f} s, write "
            f"{t['write']:.1f} s; peak memory after load {p['load']:,.0f} MiB, derive "
            f"{p['derive']:,.0f} MiB, render and write {p['render']:,.0f} MiB"
        )


@dataclass
class _Planned:
    """What the first step decided: the derived frames, and which files to render."""

    derived: derive.Derived
    plan: render_plan.Plan
    zones: derive.Derived
    """The zones whose files are rendered, with their series."""
    zone_feeds: ZoneFeeds
    index: bytes
    """The search index."""
    begun: site.Begun | None
    """The pieces over every zone a daily update began beside its planning."""
    derive_key: str
    basis: Basis | None
    zones_kept: int
    """How many zones took their current values from the previous build."""
    staged: frozenset[str]
    """The previous tree's files the staging tree holds as published."""
    staging: dict[str, Any]
    """The staging tree's manifest."""
    warnings: pl.DataFrame
    """What the loader warned of (`load.Checked.warnings`): rows kept, listed for the operator."""


def _plan(
    data_dir: Path,
    out: Path,
    as_of: dt.date,
    config: Config,
    progress: StepPrinter,
    force: bool,
    code: str,
    previous: dict[str, Any],
    clock: _Clock,
) -> _Planned:
    """Load, derive what changed, and plan which files to render (the steps "load", "derive")."""
    files = previous.get("files", {})
    # The series as the last build read it, read on a thread of its own from now on.
    kept_rows = Memo(build_state.READ.path(out), code, not force)
    kept_rows.begin(MEASUREMENTS.name)
    # Which files of the previous tree can be kept, from the staging tree beside it or from
    # the tree: asked on a thread of its own, at a lower priority, while the data loads (a
    # stat per file, 90,000 nationally). The staging tree's manifest read there is the writer's.
    kept_files = files if isinstance(files, dict) else {}
    presence = parallel.started(parallel.yielding(lambda: _available(out, kept_files)))
    clock.mark = time.perf_counter()
    # The row groups the zones' source prints are made of, and the zones with rows in new
    # ones, asked before the load and trusted only when the file is the same after it: a
    # file that changed meanwhile may not be the one loaded, so nothing is noted of it and
    # every zone is hashed (`generator.incremental.source_prints`).
    state = None if force else render_plan.read_state(out)
    basis = source_prints.basis(data_dir, code)
    touched = None
    if state is not None and state.basis is not None and basis is not None:
        touched = source_prints.touched(state.basis, basis)
    with progress.bar("Loading and checking source data", load.LOAD_STEPS, "tables") as bar:
        data, warnings = load.load_warned(data_dir, bar.advance, kept_rows)
    del kept_rows  # and a memo begun but not read (the series is no Parquet file now)
    clock.stage("load")
    if basis != source_prints.basis(data_dir, code):
        basis = touched = None
    shared = reuse.derive_key(data, code)
    hashing = functools.partial(_hashed, data, out, shared, touched, state)
    # The zones' hashes on a thread of their own while derive makes what all zones share.
    cadence = config.publication_cadence_months
    with progress.step("Deriving resources"), parallel.meanwhile(hashing) as hashes:
        derived = derive.derive(data, as_of, cadence, lambda: _kept(hashes()[1]))
    sources, taken = hashes()
    del hashing
    if taken is not None:
        progress(
            f"Derived the zones whose data changed; {taken.kept.zone_ids.len()} unchanged "
            "zone(s) kept their current values"
        )
    del data  # the derived frames share what they need; let the rest go before rendering
    index = places.search_index(derived, places.place_groups(derived.places))
    key = render_plan.render_key(derived, f"{code}|".encode() + index)
    # A daily update (the previous build's render key is this one's: the plan keeps files)
    # begins the pieces that summarise every zone now, beside its planning.
    daily = render_plan.keeps_files(state, key)
    begun = site.begin(derived, as_of, config, index, ahead=True) if daily else None
    prints = render_plan.fingerprints(derived, sources, taken.hashes if taken else None)
    kept = 0 if taken is None else taken.kept.zone_ids.len()
    del taken
    plz_prints = render_plan.plz_fingerprints(derived, prints)
    supplier_prints = render_plan.supplier_fingerprints(derived)
    (published, staged), staging = presence()
    plan = render_plan.plan(prints, plz_prints, supplier_prints, key, shared, published, state)
    if not plan.full:
        progress(
            f"Rendering the files of {len(plan.render or ())} zone(s), "
            f"{len(plan.render_plz or ())} PLZ and {len(plan.render_suppliers or ())} "
            f"supplier(s) whose data changed; {len(plan.keep)} unchanged zone(s), "
            f"{len(plan.keep_plz)} PLZ and the other suppliers keep theirs"
        )
    zones = render_plan.restrict(derived, plan.render)
    zone_feeds, plan = render_plan.zone_feeds(derived, zones, as_of, plan)
    clock.stage("derive")
    return _Planned(
        derived,
        plan,
        zones,
        zone_feeds,
        index,
        begun,
        shared,
        basis,
        kept,
        staged,
        staging,
        warnings,
    )


@dataclass
class _Written:
    """What the second step left: the tree swapped in, and the state to publish beside it."""

    report: WriteReport
    sections: dict[str, list[str]]
    """The files of each section of the tree (`generator.output.sections`)."""
    rows: Prepared
    """The derived rows kept for the next build (`reuse`), under temporary names."""
    fingerprints: Prepared
    """The fingerprints of zones, PLZ and suppliers (`render_plan`), under temporary names."""


def _render_and_write(
    p: _Planned,
    out: Path,
    as_of: dt.date,
    config: Config,
    progress: StepPrinter,
    previous: dict[str, Any],
    meta: dict[str, str],
    clock: _Clock,
) -> _Written:
    """Render the planned files, write them, keep the others, and swap the tree in.

    The steps "api", "site" and "write" of the closing line.
    """
    derived, plan = p.derived, p.plan
    clock.timings.update(api=0.0, site=0.0, write=0.0)
    planned = (
        _planned_files(derived)
        - len(render_plan.zone_paths(0)) * len(plan.keep)
        - len(render_plan.plz_paths("0")) * len(plan.keep_plz)
    )
    # The rows for the next build are encoded and written beside the state (renamed into
    # it once the tree is swapped in) on a thread of their own, at a lower priority, beside
    # a daily update's little rendering; beside a full build's they would raise its peak of
    # memory.
    encoding = functools.partial(_encoded, out, derived, plan, p.derive_key, p.basis)
    beside = (
        contextlib.nullcontext(encoding)
        if plan.full
        else parallel.meanwhile(parallel.yielding(encoding))
    )
    compiled.keep_compiled_templates(build_state.TEMPLATES.path(out))
    with (
        beside as state_files,
        TreeWriter(out, previous, p.staged, p.staging) as writer,
        progress.bar("Rendering and writing files", planned, "files") as bar,
    ):
        sections = Sections(plan.sections)
        rendering = render.render_all(
            derived,
            as_of,
            config,
            p.zones,
            p.zone_feeds,
            plan.render_plz,
            sections,
            p.index,
            plan.render_suppliers,
            p.begun,
        )
        unrendered: list[str] = []  # the sections and suppliers kept
        for path, payload in rendering:
            # Rendering is lazy, so the time between two yields is the time spent rendering
            # the file just yielded; it is charged to the API or the site by its path.
            clock.charge("api" if path.startswith(API_PREFIXES) else "site")
            if payload is None:
                unrendered.append(path)
            else:
                writer.write(path, payload)
            bar.advance()
            clock.charge("write")
        writer.keep_all(unrendered)
        _keep_unchanged(writer, plan, p.zone_feeds)
        render_plan.forget_state(out)
        report = writer.commit(meta)
    rows, fingerprints = state_files()
    return _Written(report, sections.paths, rows, fingerprints)


def _keep_unchanged(writer: TreeWriter, plan: render_plan.Plan, zone_feeds: ZoneFeeds) -> None:
    """Keep the files of the zones and PLZ the plan did not render (a kept feed rendered again)."""
    kept_zones = pl.Series("zone_id", plan.keep, dtype=pl.Int64)
    feed_again = kept_zones.is_in(zone_feeds.zones["zone_id"].cast(pl.Int64).implode())
    writer.keep_all(render_plan.paths_of(kept_zones.filter(feed_again), feeds=False))
    writer.keep_all(render_plan.paths_of(kept_zones.filter(~feed_again)))
    writer.keep_all(render_plan.paths_of(pl.Series("plz", plan.keep_plz, dtype=pl.String)))


def _publish_state(out: Path, p: _Planned, w: _Written) -> None:
    """Rename the state for the next build into place, the zones' fingerprints last.

    Only now, with the tree swapped in: the state never describes a tree not published.
    """
    try:
        w.rows.publish()
        render_plan.write_state(out, p.plan, p.derive_key, w.sections, p.basis, w.fingerprints)
    finally:
        w.fingerprints.discard()  # when the rows could not be renamed
    reuse.prune(out)


def _hashed(
    data: load.SourceData,
    out: Path,
    key: str,
    touched: pl.Series | None,
    state: render_plan.State | None,
) -> tuple[pl.DataFrame, reuse.Reused | None]:
    """Return the zones' source prints and what derive may take from the previous build.

    `touched`: the zones whose rows are hashed again, the others' are taken; None: all.
    """
    # Its files are read and digested on another thread while the zones are hashed.
    taking = reuse.takes_rows(state, key)
    checking = parallel.started(functools.partial(reuse.check_state, out)) if taking else None
    known = reuse.known(out, touched, state)
    sources = source_prints.source_prints(data.measurements, data.documents, known)
    return sources, reuse.reused(out, key, sources, state, checking() if checking else None)


def _available(
    out: Path, files: dict[str, str]
) -> tuple[tuple[frozenset[str], frozenset[str]], dict[str, Any]]:
    """Return `available(out, files)` and the staging tree's manifest it was asked with."""
    staging = read_staging_manifest(out)
    return available(out, files, staging), staging


def _encoded(
    out: Path,
    derived: derive.Derived,
    plan: render_plan.Plan,
    derive_key: str,
    basis: Basis | None,
) -> tuple[Prepared, Prepared]:
    """Write what the next build takes from this one beside the state, not in place.

    The rows kept for it (`reuse`), and the fingerprints (`render_plan.prepare_state`).
    """
    rows = reuse.prepare(out, reuse.encoded(derived))
    return rows, render_plan.prepare_state(out, plan, derive_key, basis)


def _kept(taken: reuse.Reused | None) -> derive.Kept | None:
    return None if taken is None else taken.kept


def write_gate_dir(out: Path, config: Config) -> Path:
    """Write routes.json and suche.json for the gates next to the build (never into the tree).

    The register's codes come from the tree's own `v1/parameters.json`, the places of the
    search from its `suchindex.json`, so both always describe the tree beside them (also
    after a build that had nothing to do).
    """
    target = gate_dir(out)
    try:
        register = (Path(out) / routes.file_path("parameters")).read_bytes()
    except FileNotFoundError:
        register = b'{"parameters":[]}'
    codes = series.register_codes(register)
    text = routes_json(GateSettings.from_config(config), codes)
    atomic_write(target / "routes.json", text.encode("utf-8"))
    # The places the search without JavaScript knows, from the tree's own search index.
    try:
        index = (Path(out) / urls.file_path("search_index")).read_bytes()
    except FileNotFoundError:
        index = b'{"plz":[],"orte":[]}'
    searched = site_rules.search_document(index)
    found = json.dumps(searched, ensure_ascii=False, indent=0, sort_keys=True) + "\n"
    atomic_write(target / site_rules.SEARCH_FILE, found.encode("utf-8"))
    return target


def _peak_mib() -> float:
    """Return the process's peak resident memory so far, in MiB (0 where the OS does not say)."""
    try:
        import resource
    except ImportError:  # not on Windows
        return 0.0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _planned_files(d: derive.Derived) -> int:
    """Estimate how many files a build writes (the bar's total).

    The API files exactly, the site as one page per PLZ, zone, supplier and parameter (plus a
    few pages and assets).
    """
    return (
        render.api_file_count(d)
        + d.lookups.height
        + d.zones.height
        + d.suppliers.height
        + (d.parameters.height)
    )


def _tree_intact(out: Path, manifest: dict[str, Any]) -> bool:
    """Cheap check that the published tree still has every file the manifest lists."""
    files = manifest.get("files", {})
    return bool(files) and all((out / rel).is_file() for rel in files)
