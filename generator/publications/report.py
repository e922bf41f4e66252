"""What `trinkwasser import` prints: what it matched, what it did not, and why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from generator.publications.importer import ImportResult, Target
from generator.publications.layouts import IGNORED, REPORTING_LIMIT
from generator.publications.match import MATCHED
from generator.publications.read import ROW
from generator.publications.waiting import describe, waiting

LIST_AT_MOST = 50
NOTES_AT_MOST = 10
"""Ignored columns and notes shown: a sheet of 16,384 stray columns is not 16,384 notes."""


def _rows(frame: pl.DataFrame) -> str:
    rows = sorted(set(frame[ROW].to_list()))
    shown = ", ".join(str(r) for r in rows[:8])
    return f"row {shown}" if len(rows) == 1 else f"rows {shown}{' ...' if len(rows) > 8 else ''}"


def _limited(lines: list[str]) -> list[str]:
    if len(lines) <= LIST_AT_MOST:
        return lines
    return [*lines[:LIST_AT_MOST], f"  ... and {len(lines) - LIST_AT_MOST} more"]


def format_report(result: ImportResult, dry_run: bool, data_dir: Path) -> str:
    """Return the report as lines of text; `data_dir` goes into the commands it suggests."""
    lay = result.layout
    lines = [f"Read {result.source}: header in row {lay.header_line}, {lay.kind}."]
    ignored = [c for c in lay.columns if c.role == IGNORED and c.header]
    if ignored:
        shown = "; ".join(f"{c.header!r} ({c.why})" for c in ignored[:NOTES_AT_MOST])
        more = len(ignored) - NOTES_AT_MOST
        lines.append(f"Ignored columns: {shown}" + (f"; and {more} more." if more > 0 else "."))
    notes = [f"Note: {n}." for n in result.notes]
    if len(notes) > NOTES_AT_MOST:
        notes = [*notes[:NOTES_AT_MOST], f"Note: {len(notes) - NOTES_AT_MOST} more like these."]
    lines += notes
    if result.reporting_limits:
        column = next(c.header for c in lay.columns if c.role == REPORTING_LIMIT)
        lines.append(
            f"Note: {result.reporting_limits} reporting limit(s) in column {column!r} are kept "
            "with their values (column reporting_limit); a value printed as '< BG' is below it."
        )
    matched = result.matches.filter(pl.col("status") == MATCHED)
    lines.append(
        f"\nMatched {matched.height} of {result.matches.height} published name/unit pairs:"
    )
    for m in matched.sort("code").iter_rows(named=True):
        unit = m["unit_read"] or "(no unit)"
        marks = [m["name_statistic"]] if m["name_statistic"] != "sample" else []
        if m["on_site"]:
            marks.append("on site")
        if m["name_reporting_limit"]:
            marks.append(f"reporting limit {m['name_reporting_limit']} in the name")
        extra = f" [{', '.join(marks)}]" if marks else ""
        lines.append(
            f"  {m['name']!r} {unit} -> {m['code']} ({m['register_unit'] or 'no unit'}){extra}"
        )
    withheld = result.withheld
    if withheld.height:
        lines.append(f"\nNot imported: {withheld.height} value(s):")
        by_name = withheld.group_by("name", "unit", "status", "reason", maintain_order=True).agg(
            pl.col(ROW), pl.col("suggestions").first()
        )
        out = []
        for w in by_name.iter_rows(named=True):
            rows = _rows(pl.DataFrame({ROW: w[ROW]}))
            unit = f" [{w['unit']}]" if w["unit"] else ""
            hint = f" Perhaps: {', '.join(w['suggestions'].split())}?" if w["suggestions"] else ""
            out.append(f"  {rows}: {w['name']!r}{unit}: {w['status']}: {w['reason']}.{hint}")
        lines += _limited(out)
    open_names = waiting(withheld, result.matches)
    if open_names:
        count = sum(w.values for w in open_names)
        lines.append(
            f"\nWaiting for a decision: {count} value(s) under {len(open_names)} name(s). "
            "Settle each with one command (CODE: the register code the supplier means), "
            "then import again:"
        )
        lines += describe(open_names, data_dir)
    if result.conflicts.height:
        lines.append(f"\nConflicts: {result.conflicts.height} value(s) not written:")
        lines += _limited(
            [
                f"  row {c[ROW]}: {c['parameter']} {c['sampled_at']} {c['statistic']}"
                f"{' at ' + c['sample_point'] if c['sample_point'] else ''}: "
                f"{c['value_text']!r}: {c['why']}"
                for c in result.conflicts.iter_rows(named=True)
            ]
        )
    if result.empty_rows.height:
        names = ", ".join(repr(n) for n in result.empty_rows["name"].head(6).to_list())
        dots = " ..." if result.empty_rows.height > 6 else ""
        lines.append(f"\nRows without any value (headings, notes): {names}{dots}")
    verb = "Would append" if dry_run else "Appended"
    lines.append(
        f"\n{verb} {result.new.height} row(s); {result.present.height} already present; "
        f"{result.conflicts.height} conflict(s); {result.withheld.height} value(s) not imported."
    )
    if dry_run:
        lines.append("Dry run: nothing was written.")
    elif result.written is not None:
        lines.append(f"Wrote {result.written}.")
    return "\n".join(lines)


def _listed(value: object) -> object:
    return value.isoformat() if hasattr(value, "isoformat") else value


def report_json(
    result: ImportResult, target: Target, dry_run: bool, ok: bool = True
) -> dict[str, Any]:
    """Return the import as a `trinkwasser.import/1` report (docs/operations.md)."""
    from generator import reports

    matched = result.matches.filter(pl.col("status") == MATCHED).sort("code")
    withheld = result.withheld.with_columns(pl.col("unit").fill_null(""))
    open_names = waiting(result.withheld, result.matches)
    return {
        "report": reports.IMPORT,
        "ok": ok,
        "source": result.source,
        "data_dir": str(target.data_dir),
        "zone_id": target.zone_id,
        "document_id": target.document_id,
        "dry_run": dry_run,
        "written": str(result.written) if result.written is not None else None,
        "counts": {
            "appended": result.new.height,
            "present": result.present.height,
            "conflicts": result.conflicts.height,
            "not_imported": result.withheld.height,
            "waiting": sum(w.values for w in open_names),
        },
        "matched": [
            {
                "name": m["name"],
                "unit": m["unit_read"] or "",
                "code": m["code"],
                "register_unit": m["register_unit"] or "",
                "statistic": m["name_statistic"],
                "on_site": bool(m["on_site"]),
            }
            for m in matched.iter_rows(named=True)
        ],
        "not_imported": [
            {
                "row": w[ROW],
                "name": w["name"],
                "unit": w["unit"],
                "status": w["status"],
                "reason": w["reason"],
                "suggestions": (w["suggestions"] or "").split(),
            }
            for w in withheld.iter_rows(named=True)
        ],
        "waiting": [w.as_json(Path(target.data_dir)) for w in open_names],
        "conflicts": [
            {
                "row": c[ROW],
                "parameter": c["parameter"],
                "sampled_at": _listed(c["sampled_at"]),
                "statistic": c["statistic"],
                "sample_point": c["sample_point"],
                "value_text": c["value_text"],
                "why": c["why"],
            }
            for c in result.conflicts.iter_rows(named=True)
        ],
    }
