"""One run of `trinkwasser fetch`: every source of the register, fetched, archived, reported.

The register (`sources`) is checked with the tables it names; a broken register is a local
error (nothing is fetched). Sources are grouped by host: the hosts are fetched at the same
time, the sources of one host one after another, `delay` seconds apart. What a server
answers never stops the run; it is reported per source:

- `new`: the first version of the source; `changed`: a version whose bytes differ from the
  last one; `unchanged`: a 304, or the same bytes again; `failed`: no document, and why;
- `moved`: a permanent redirect on the way (the register should get the new address).

Then the links of the documents made from each source are marked (`link_gone_since`), and
with `import_` every version not imported yet is imported (`reimport`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import polars as pl

from generator.config import Config
from generator.contract.check import check_tables
from generator.contract.model import ROW
from generator.contract.read import candidates
from generator.contract.tables import DOCUMENTS, SOURCES, SUPPLIERS, ZONES
from generator.errors import SourceDataError
from generator.fetch import documents as document_files
from generator.fetch.addresses import AddressPolicy
from generator.fetch.archive import IMPORTED, PENDING, SUPERSEDED, Archive, Version
from generator.fetch.polite import Answer, PoliteClient, Validators
from generator.fetch.politeness import Politeness
from generator.fetch.reimport import STAGING, Recipe, import_version
from generator.load import reference_dir
from generator.locking import exclusive_all
from generator.ordinance import staleness
from generator.output.atomic import atomic_write
from generator.publications.importer import remove_stale_staging
from generator.publications.waiting import Waiting

NEW = "new"
CHANGED = "changed"
UNCHANGED = "unchanged"
FAILED = "failed"


@dataclass
class SourceResult:
    source_id: str
    url: str
    status: str
    """new, changed, unchanged or failed."""
    http_status: int | None
    final_url: str
    moved: bool = False
    reason: str | None = None
    gone: bool = False
    sha256: str | None = None
    import_note: str | None = None
    imported: bool | None = None
    """None: not asked to import, or nothing to import."""
    document_id: str | None = None
    waiting: list[Waiting] = field(default_factory=list)
    """Names of the imported version whose values wait for the operator's decision."""


@dataclass
class StaleSupplier:
    supplier_id: int
    name: str
    newest: dt.date | None
    registered: bool
    """Whether the register has a source of the supplier."""


@dataclass
class RunResult:
    fetched_on: dt.date
    sources: list[SourceResult] = field(default_factory=list)
    stale: list[StaleSupplier] = field(default_factory=list)
    cadence_months: int = 12
    links_written: bool = False
    requests: int = 0
    waiting: int = 0
    """Versions read but not imported (counted when the run did not import)."""
    swept: list[Path] = field(default_factory=list)
    """Staging folders of killed runs and imports, removed."""
    data_dir: Path = Path(".")
    registered: bool = True
    """Whether the data directory has a register (sources); without one nothing is watched."""
    unwatched: list[tuple[int, str]] = field(default_factory=list)
    """Suppliers (id, name) without a registered source."""


def read_register(data_dir: Path) -> tuple[list[Recipe], pl.DataFrame, pl.DataFrame]:
    """Check the register with the tables it names.

    Return its recipes, the suppliers and the documents.
    """
    declared = (SUPPLIERS, ZONES, DOCUMENTS, SOURCES)
    result = check_tables(data_dir, declared, reference_dir())
    if not result.complete(declared):
        raise SourceDataError(result.problems)
    sources = result.tables["sources"].drop(ROW).sort("source_id")
    recipes = [
        Recipe(
            source_id=r["source_id"],
            supplier_id=r["supplier_id"],
            zone_id=r["zone_id"],
            url=r["url"],
            title=r["title"],
            table=r["table"],
            sheet=r["sheet"],
            encoding=r["encoding"],
            sample_point=r["sample_point"],
        )
        for r in sources.iter_rows(named=True)
    ]
    return recipes, result.tables["suppliers"].drop(ROW), result.tables["documents"].drop(ROW)


def stale_suppliers(
    suppliers: pl.DataFrame,
    documents: pl.DataFrame,
    recipes: list[Recipe],
    as_of: dt.date,
    months: int,
) -> list[StaleSupplier]:
    """Return the suppliers whose newest document is older than the cadence (or none)."""
    newest = documents.group_by("supplier_id").agg(pl.col("edition_date").max().alias("newest"))
    registered = {r.supplier_id for r in recipes}
    frame = (
        suppliers.join(newest, on="supplier_id", how="left")
        .filter(staleness.stale_expr(pl.col("newest"), as_of, months))
        .sort("supplier_id")
    )
    return [
        StaleSupplier(r["supplier_id"], r["name"], r["newest"], r["supplier_id"] in registered)
        for r in frame.iter_rows(named=True)
    ]


def _stamp(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _validators(archive: Archive, recipe: Recipe) -> Validators | None:
    latest = archive.manifest(recipe.source_id).latest
    # Validators belong to an address: a source whose URL was edited starts afresh.
    if latest is None or latest.url != recipe.url:
        return None
    return Validators(latest.etag, latest.last_modified)


def record(archive: Archive, recipe: Recipe, answer: Answer, now: dt.datetime) -> SourceResult:
    """Archive what `answer` brought and say what it was."""
    manifest = archive.manifest(recipe.source_id)
    latest = manifest.latest
    result = SourceResult(
        recipe.source_id,
        recipe.url,
        FAILED,
        answer.status,
        answer.final_url,
        moved=answer.moved,
        reason=answer.error,
        gone=answer.gone,
    )
    if answer.error is None and answer.not_modified:
        result.status = UNCHANGED
        result.sha256 = latest.sha256 if latest else None
    elif answer.error is None and answer.body is not None:
        digest = archive.store(answer.body)
        result.sha256 = digest
        if latest is not None and latest.sha256 == digest and latest.url == recipe.url:
            result.status = UNCHANGED
            # Fresh validators for the same bytes: the next request can be a 304.
            latest.etag, latest.last_modified = answer.etag, answer.last_modified
            latest.final_url = answer.final_url
        else:
            result.status = NEW if latest is None else CHANGED
            for older in manifest.versions:
                if older.import_state == PENDING:
                    older.import_state = SUPERSEDED
            manifest.versions.append(
                Version(
                    sha256=digest,
                    url=recipe.url,
                    final_url=answer.final_url,
                    retrieved_at=_stamp(now),
                    status=200,
                    etag=answer.etag,
                    last_modified=answer.last_modified,
                    content_type=answer.content_type,
                    size=len(answer.body),
                )
            )
    manifest.checks.append(
        {
            "checked_at": _stamp(now),
            "url": recipe.url,
            "final_url": answer.final_url,
            "status": answer.status,
            "result": result.status,
            "moved": answer.moved,
            "reason": answer.error,
            "sha256": result.sha256,
        }
    )
    archive.save(manifest)
    return result


async def _fetch_all(
    recipes: list[Recipe],
    archive: Archive,
    config: Config,
    rules: Politeness,
    transport: httpx.AsyncBaseTransport | None,
    clock: Callable[[], dt.datetime],
    policy: AddressPolicy | None = None,
) -> tuple[list[SourceResult], int]:
    by_host: dict[str, list[Recipe]] = defaultdict(list)
    for recipe in recipes:
        by_host[urlsplit(recipe.url).netloc.lower()].append(recipe)
    results: dict[str, SourceResult] = {}
    async with PoliteClient(config, rules, transport, policy) as client:

        async def one_host(queue: list[Recipe]) -> None:
            for recipe in queue:
                answer = await client.fetch(recipe.url, _validators(archive, recipe))
                results[recipe.source_id] = record(archive, recipe, answer, clock())

        await asyncio.gather(*(one_host(q) for q in by_host.values()))
        requests = client.requests
    return [results[r.source_id] for r in recipes], requests


def _addresses(archive: Archive, recipe: Recipe) -> set[str]:
    """Every address a source was read from: its documents rows link one of them."""
    seen = {recipe.url}
    for v in archive.manifest(recipe.source_id).versions:
        seen |= {v.url, v.final_url}
    return seen


def mark_links(
    data_dir: Path,
    documents: pl.DataFrame,
    archive: Archive,
    recipes: list[Recipe],
    results: list[SourceResult],
    today: dt.date,
) -> bool:
    """Set `link_gone_since` where a source's link no longer answers, clear it where it does.

    Return whether the documents table was rewritten.
    """
    current = dict(
        zip(documents["document_id"].to_list(), documents["link_gone_since"].to_list(), strict=True)
    )
    by_url: dict[str, list[str]] = defaultdict(list)
    for doc_id, url in documents.select("document_id", "url").iter_rows():
        by_url[url].append(doc_id)
    changes: dict[str, str | None] = {}
    for recipe, result in zip(recipes, results, strict=True):
        answered = result.status != FAILED
        if not answered and not result.gone:
            continue  # not asked (robots.txt, size cap, busy server): no news of the link
        for url in _addresses(archive, recipe) | {result.final_url}:
            for doc_id in by_url.get(url, []):
                since = current.get(doc_id)
                if answered and since is not None:
                    changes[doc_id] = None
                elif not answered and since is None:
                    changes[doc_id] = today.isoformat()
    if not changes:
        return False
    path = document_files.documents_file(data_dir)
    data = document_files.with_gone(path, changes)
    if data is None:
        return False
    atomic_write(path, data)
    return True


def import_pending(
    data_dir: Path,
    archive: Archive,
    recipes: list[Recipe],
    results: list[SourceResult],
) -> None:
    """Import the newest version of every source that is not imported yet."""
    by_id = {r.source_id: r for r in results}
    for recipe in recipes:
        manifest = archive.manifest(recipe.source_id)
        latest = manifest.latest
        if latest is None:
            continue
        # Imported, but with values waiting for a decision: imported again, so a decision
        # made since is taken (rows already there are skipped).
        if latest.import_state != PENDING and not (
            latest.import_state == IMPORTED and latest.waiting
        ):
            continue
        retrieved = dt.date.fromisoformat(latest.retrieved_at[:10])
        outcome = import_version(data_dir, archive, recipe, latest, retrieved)
        latest.document_id = outcome.document_id
        latest.import_note = outcome.message
        if outcome.imported:
            latest.import_state = IMPORTED
            latest.waiting = sum(w.values for w in outcome.waiting)
        archive.save(manifest)
        result = by_id[recipe.source_id]
        result.imported = outcome.imported
        result.import_note = outcome.message
        result.document_id = outcome.document_id
        result.waiting = outcome.waiting


def run(
    data_dir: Path,
    archive_dir: Path,
    config: Config,
    rules: Politeness,
    import_: bool = False,
    clock: Callable[[], dt.datetime] | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    policy: AddressPolicy | None = None,
) -> RunResult:
    """Fetch every registered source; archive, mark links, import (with `import_`).

    `clock` gives the time of a retrieval (default: now); its date is the retrieval date of
    a new document and the day a link is found gone. `transport` and `policy` replace the
    client's (by default: the address policy of `rules`, enforced where it connects).
    """
    # One run at a time on a data directory and an archive (generator.locking): the lock
    # is held until the last manifest says what was imported.
    Path(archive_dir).mkdir(parents=True, exist_ok=True)
    with exclusive_all([data_dir, archive_dir], "trinkwasser fetch"):
        return _run(data_dir, archive_dir, config, rules, import_, clock, transport, policy)


def _run(
    data_dir: Path,
    archive_dir: Path,
    config: Config,
    rules: Politeness,
    import_: bool,
    clock: Callable[[], dt.datetime] | None,
    transport: httpx.AsyncBaseTransport | None,
    policy: AddressPolicy | None,
) -> RunResult:
    clock = clock or (lambda: dt.datetime.now(dt.UTC))
    today = clock().astimezone(dt.UTC).date()
    data_dir = Path(data_dir)
    recipes, suppliers, documents = read_register(data_dir)
    archive = Archive(archive_dir)
    results, requests = asyncio.run(
        _fetch_all(recipes, archive, config, rules, transport, clock, policy)
    )
    outcome = RunResult(today, results, cadence_months=config.publication_cadence_months)
    outcome.data_dir = data_dir
    outcome.registered = bool(candidates(data_dir, SOURCES.name))
    registered = {r.supplier_id for r in recipes}
    outcome.unwatched = [
        (r["supplier_id"], r["name"])
        for r in suppliers.sort("supplier_id").iter_rows(named=True)
        if r["supplier_id"] not in registered
    ]
    outcome.requests = requests
    outcome.links_written = mark_links(data_dir, documents, archive, recipes, results, today)
    if import_:
        outcome.swept = remove_stale_staging(data_dir, STAGING) + remove_stale_staging(data_dir)
        import_pending(data_dir, archive, recipes, results)
        _, _, documents = read_register(data_dir)
    else:
        latest = (archive.manifest(r.source_id).latest for r in recipes)
        outcome.waiting = sum(v is not None and v.import_state == PENDING for v in latest)
    outcome.stale = stale_suppliers(
        suppliers, documents, recipes, today, config.publication_cadence_months
    )
    return outcome
