"""A new version of a source into the data directory: a `documents` row and its values.

The version is imported with the source's recipe (table, sheet, encoding, sample point)
through the library of `trinkwasser import`, in a staging copy of the data directory: the
new documents row and the appended measurements are checked against the whole contract
together and only then renamed into place. Whatever fails leaves the data directory as it
was and the version pending, so the next run tries again (for instance once the operator
added the document's edition date).
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

import polars as pl

from generator.contract.check import check_tables
from generator.contract.model import ROW
from generator.contract.read import candidates, sniff_separator
from generator.contract.tables import ALL_TABLES, DOCUMENTS, SUPPLIERS
from generator.errors import SourceDataError, TrinkwasserError
from generator.fetch import documents as document_files
from generator.fetch.archive import Archive, Version
from generator.fetch.edition import document_text, edition_date
from generator.load import format_problems, reference_dir
from generator.output.atomic import atomic_write_all
from generator.publications import importer
from generator.publications.read import EXCEL_SUFFIXES, read_excel
from generator.publications.waiting import Waiting, waiting

STAGING = ".trinkwasser-fetch"
CSV_SUFFIXES = (".csv", ".txt", ".tsv")
_TYPES = {
    "text/csv": ".csv",
    "text/plain": ".txt",
    "text/tab-separated-values": ".tsv",
    "application/vnd.ms-excel": ".xls",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": ".xlsx",
    "application/vnd.oasis.opendocument.spreadsheet": ".ods",
    "application/pdf": ".pdf",
    "text/html": ".html",
    "application/xhtml+xml": ".html",
}


@dataclass(frozen=True)
class Recipe:
    """A row of the register: where a publication is and how its table is imported."""

    source_id: str
    supplier_id: int
    zone_id: int
    url: str
    title: str | None = None
    table: str | None = None
    sheet: str | None = None
    encoding: str | None = None
    sample_point: str | None = None


@dataclass
class ImportOutcome:
    imported: bool
    document_id: str
    message: str
    waiting: list[Waiting] = field(default_factory=list)
    """The names whose values wait for the operator's decision."""


def document_id(source_id: str, sha256: str) -> str:
    """Return the id of a version's documents row: the source's id and its hash's start."""
    return f"{source_id[:50]}-{sha256[:8]}"


def suffix(version: Version) -> str:
    """Return the file type of a version: the address's suffix, else by its content type."""
    path_suffix = PurePosixPath(urlsplit(version.final_url).path).suffix.lower()
    if path_suffix in (*CSV_SUFFIXES, *EXCEL_SUFFIXES, ".pdf", ".html", ".htm"):
        return path_suffix
    kind = (version.content_type or "").split(";")[0].strip().lower()
    return _TYPES.get(kind, path_suffix or ".bin")


PAGE_SUFFIXES = (".html", ".htm")


def importable(kind: str) -> bool:
    """Whether `trinkwasser import` reads this type of file."""
    return kind in CSV_SUFFIXES or kind in EXCEL_SUFFIXES or kind in (".pdf", *PAGE_SUFFIXES)


def stated_edition(path: Path, recipe: Recipe) -> dt.date | None:
    """Return the edition date the document states, or None."""
    kind = path.suffix.lower()
    if kind == ".pdf":
        from generator.publications.pdf import text as pdf_text

        return edition_date(pdf_text(path))
    if kind in EXCEL_SUFFIXES:
        raw = read_excel(path, recipe.sheet)
        cells = raw.frame.drop("_row").fill_null("")
        text = "\n".join(" ".join(str(v) for v in row) for row in cells.iter_rows())
    else:
        text = document_text(path.read_bytes(), recipe.encoding or "utf-8")
    return edition_date(text)


def _stage(data_dir: Path) -> Path:
    # The process id in the name: a later run removes the folder of a killed one.
    staging = Path(tempfile.mkdtemp(prefix=f"{STAGING}-{os.getpid()}-", dir=data_dir))
    for path in data_dir.iterdir():
        if path.is_file() and path.suffix in (".csv", ".parquet", ".json"):
            (staging / path.name).symlink_to(path.resolve())
    return staging


def _documents(data_dir: Path) -> pl.DataFrame:
    # Only what the row needs; the import checks the whole directory before it writes.
    result = check_tables(data_dir, (SUPPLIERS, DOCUMENTS), reference_dir())
    if result.problems.height:
        raise SourceDataError(result.problems)
    return result.tables["documents"].drop(ROW)


def import_version(
    data_dir: Path,
    archive: Archive,
    recipe: Recipe,
    version: Version,
    fetched_on: dt.date,
) -> ImportOutcome:
    """Import `version` of `recipe`'s source; never leaves anything half-written.

    Whatever the document does to the readers (a parser's own exception, a table too large
    for the caps) is this version's failure, reported in its outcome; only the final rename
    into the data directory can raise (OSError: a local problem of the run).
    """
    doc_id = document_id(recipe.source_id, version.sha256)
    kind = suffix(version)
    if not importable(kind):
        return ImportOutcome(
            False, doc_id, f"archived; `trinkwasser import` cannot read {kind} documents"
        )
    staging = _stage(data_dir)
    try:
        try:
            planned = _prepare(staging, data_dir, archive, recipe, version, fetched_on, kind)
        except SourceDataError as exc:
            return ImportOutcome(
                False,
                doc_id,
                "with it the data directory breaks the contract; nothing was written:\n"
                + format_problems(exc.problems, 5),
            )
        except TrinkwasserError as exc:
            return ImportOutcome(False, doc_id, str(exc))
        except Exception as exc:  # noqa: BLE001 - a hostile document fails its source alone
            return ImportOutcome(
                False, doc_id, f"the document could not be read: {type(exc).__name__}: {exc}"
            )
        if isinstance(planned, ImportOutcome):
            return planned
        result, doc_id = planned
        _commit(staging, data_dir)
        notes = [f"{result.new.height} value(s) appended", f"{result.present.height} present"]
        open_names = waiting(result.withheld, result.matches)
        count = sum(w.values for w in open_names)
        if count:
            notes.append(f"{count} wait for a decision")
        if result.withheld.height > count:
            notes.append(f"{result.withheld.height - count} not imported (no register parameter)")
        if result.conflicts.height:
            notes.append(f"{result.conflicts.height} conflict(s)")
        return ImportOutcome(True, doc_id, "; ".join(notes), open_names)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _prepare(
    staging: Path,
    data_dir: Path,
    archive: Archive,
    recipe: Recipe,
    version: Version,
    fetched_on: dt.date,
    kind: str,
) -> tuple[importer.ImportResult, str] | ImportOutcome:
    """Stage the documents row and the values; return the plan and its document id.

    An `ImportOutcome` instead says why nothing is staged.
    """
    doc_id = document_id(recipe.source_id, version.sha256)
    table = staging / f"{recipe.source_id}{kind}"
    table.write_bytes(archive.read(version.sha256))
    rows = _documents(data_dir)
    known = rows.filter(pl.col("document_id") == doc_id)
    if known.height:
        edition = known["edition_date"][0]
    else:
        edition = stated_edition(table, recipe)
        same = _same_document(rows, version, edition) if edition is not None else None
        if same is not None:
            doc_id, known = same, rows.filter(pl.col("document_id") == same)
    if not known.height:
        if edition is None:
            return ImportOutcome(
                False,
                doc_id,
                f"the document states no edition date (Stand); add the documents row "
                f"{doc_id!r} with it (url {version.final_url}, retrieved "
                f"{fetched_on.isoformat()}), and the next run imports it",
            )
        if edition > fetched_on:
            return ImportOutcome(
                False,
                doc_id,
                f"the stated edition date {edition} is after the retrieval; add the "
                f"documents row {doc_id!r} by hand, and the next run imports it",
            )
        row = {
            "document_id": doc_id,
            "supplier_id": str(recipe.supplier_id),
            "title": recipe.title or recipe.source_id,
            "url": version.final_url,
            "edition_date": edition.isoformat(),
            "retrieved_date": fetched_on.isoformat(),
        }
        source = document_files.documents_file(data_dir)
        staged = staging / source.name
        data = document_files.with_row(source, row)
        staged.unlink()
        staged.write_bytes(data)
    sampled_at = _sampled_at(data_dir, recipe.zone_id, doc_id) or edition
    target = importer.Target(
        staging, recipe.zone_id, doc_id, sampled_at=sampled_at, sample_point=recipe.sample_point
    )
    result = _plan(table, target, recipe)
    table.unlink()
    if importer.changes(result, target):
        importer.write(result, target)
    else:
        check = check_tables(staging, ALL_TABLES, reference_dir())
        if check.problems.height:
            raise SourceDataError(check.problems)
    return result, doc_id


def _same_document(rows: pl.DataFrame, version: Version, edition: dt.date) -> str | None:
    """Return the id of a documents row for the same publication: its address and edition.

    An operator who imported a table by hand before registering its source made that row;
    a second row for the same bytes would list the publication twice.
    """
    same = rows.filter(
        pl.col("url").is_in([version.url, version.final_url]) & (pl.col("edition_date") == edition)
    ).sort("document_id")
    return str(same["document_id"][0]) if same.height else None


def _sampled_at(data_dir: Path, zone_id: int, doc_id: str) -> dt.date | None:
    """Return the one sample date the zone's values from this document have, if they have one.

    A documents row made by an import by hand keeps the sample date given then: importing
    the same document again with another date would add every value a second time.
    """
    found = candidates(data_dir, "measurements")
    if len(found) != 1:
        return None
    path = found[0]
    frame = (
        pl.scan_parquet(path)
        if path.suffix == ".parquet"
        else pl.scan_csv(path, infer_schema=False, separator=sniff_separator(_header(path)))
    )
    dates = (
        frame.filter(
            (pl.col("zone_id").cast(pl.String).str.strip_chars() == str(zone_id))
            & (pl.col("document_id").cast(pl.String).str.strip_chars() == doc_id)
        )
        .select(pl.col("sampled_at").cast(pl.String).str.strip_chars().unique())
        .collect()
        .get_column("sampled_at")
        .drop_nulls()
        .to_list()
    )
    if len(dates) != 1:
        return None
    try:
        return dt.date.fromisoformat(dates[0])
    except ValueError:
        return None


def _header(path: Path) -> str:
    with path.open(encoding="utf-8-sig") as fh:
        return fh.readline().strip()


def _plan(path: Path, target: importer.Target, recipe: Recipe) -> importer.ImportResult:
    """Plan the import with the recipe's options (the import's own defaults otherwise)."""
    return importer.plan(path, target, recipe.sheet, recipe.encoding, table=recipe.table)


def _commit(staging: Path, data_dir: Path) -> None:
    """Rename the staged real files (documents first, then measurements) into place."""
    staged = [p for p in staging.iterdir() if p.is_file() and not p.is_symlink()]
    order = sorted(staged, key=lambda p: (not p.name.startswith("documents"), p.name))
    for path in order:
        for old in candidates(data_dir, path.stem):
            if old.name != path.name:  # the import never changes a table's format
                raise TrinkwasserError(f"{old} would be replaced by {path.name}")
    atomic_write_all(
        [(data_dir / path.name, functools.partial(shutil.copyfile, path)) for path in order]
    )
