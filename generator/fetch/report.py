"""What `trinkwasser fetch` prints: one line per source, the imports, the stale suppliers."""

from __future__ import annotations

from typing import Any

from generator.fetch.run import CHANGED, FAILED, NEW, UNCHANGED, RunResult, SourceResult
from generator.ordinance import staleness
from generator.publications.waiting import describe


def _line(r: SourceResult, width: int) -> str:
    if r.status == FAILED:
        what = r.reason or "failed"
        if r.gone:
            what += " (the link no longer answers)"
    elif r.status == UNCHANGED:
        what = "not modified (304)" if r.http_status == 304 else "same bytes as before"
    else:
        what = f"archived as {r.sha256[:12] if r.sha256 else '?'}"
    if r.moved:
        what += f"; moved to {r.final_url} (put the new address in sources)"
    return f"  {r.source_id:<{width}}  {r.status:<9}  {what}"


def warnings(result: RunResult) -> list[str]:
    """Return what the operator must know even when every server answered."""
    if result.registered:
        return []
    listed = ", ".join(f"{i} {name}" for i, name in result.unwatched) or "none"
    return [
        f"no sources table in {result.data_dir}: nothing is watched, no publication was "
        f"fetched. Suppliers without a registered source: {listed}. Add sources.csv "
        "(docs/operations.md, The register of publications)."
    ]


def format_run(result: RunResult) -> str:
    counts = {s: sum(r.status == s for r in result.sources) for s in (NEW, CHANGED, UNCHANGED)}
    failed = sum(r.status == FAILED for r in result.sources)
    moved = sum(r.moved for r in result.sources)
    lines = [
        f"Fetched {len(result.sources)} source(s) with {result.requests} request(s) on "
        f"{result.fetched_on.isoformat()}: {counts[NEW]} new, {counts[CHANGED]} changed, "
        f"{counts[UNCHANGED]} unchanged, {moved} moved, {failed} failed."
    ]
    width = max((len(r.source_id) for r in result.sources), default=0)
    lines += [_line(r, width) for r in result.sources]
    tried = [r for r in result.sources if r.imported is not None]
    if tried:
        done = sum(bool(r.imported) for r in tried)
        lines.append(f"Imported {done} of {len(tried)} version(s) waiting for import:")
        for r in tried:
            head = f"document {r.document_id}" if r.imported else "not imported"
            note = (r.import_note or "").replace("\n", "\n      ")
            lines.append(f"  {r.source_id:<{width}}  {head}: {note}")
    open_names = [w for r in tried for w in r.waiting]
    if open_names:
        count = sum(w.values for w in open_names)
        lines.append(
            f"Waiting for a decision: {count} value(s) under {len(open_names)} name(s). "
            "Settle each with one command (CODE: the register code the supplier means); the "
            "next run with --import takes them:"
        )
        lines += describe(open_names, result.data_dir)
    if result.waiting:
        lines.append(f"{result.waiting} version(s) wait for import: run again with --import.")
    for folder in result.swept:
        lines.append(f"Removed {folder}, left behind by an interrupted run.")
    if result.links_written:
        lines.append("Updated link_gone_since in the documents table.")
    since = staleness.cutoff(result.fetched_on, result.cadence_months)
    if result.stale:
        lines.append(
            f"{len(result.stale)} supplier(s) without a publication in the last "
            f"{result.cadence_months} month(s) (none since {since.isoformat()}):"
        )
        for s in result.stale:
            newest = f"newest {s.newest.isoformat()}" if s.newest else "no document"
            where = "" if s.registered else "; no source registered"
            lines.append(f"  {s.supplier_id}  {s.name}: {newest}{where}")
    elif result.registered:
        lines.append(f"Every supplier published within the last {result.cadence_months} month(s).")
    if result.registered and result.unwatched:
        shown = ", ".join(f"{i} {name}" for i, name in result.unwatched)
        lines.append(f"Suppliers without a registered source: {shown}.")
    lines += [f"Warning: {w}" for w in warnings(result)]
    return "\n".join(lines)


def run_json(result: RunResult) -> dict[str, Any]:
    """Return the run as a `trinkwasser.fetch/1` report (docs/operations.md)."""
    from generator import reports

    return {
        "report": reports.FETCH,
        "ok": True,
        "fetched_on": result.fetched_on.isoformat(),
        "data_dir": str(result.data_dir),
        "requests": result.requests,
        "registered": result.registered,
        "sources": [
            {
                "source_id": r.source_id,
                "url": r.url,
                "status": r.status,
                "http_status": r.http_status,
                "final_url": r.final_url,
                "moved": r.moved,
                "gone": r.gone,
                "reason": r.reason,
                "sha256": r.sha256,
                "imported": r.imported,
                "document_id": r.document_id,
                "import_note": r.import_note,
                "waiting": [w.as_json(result.data_dir) for w in r.waiting],
            }
            for r in result.sources
        ],
        "waiting_for_import": result.waiting,
        "waiting_for_decision": sum(w.values for r in result.sources for w in r.waiting),
        "links_written": result.links_written,
        "cadence_months": result.cadence_months,
        "stale": [
            {
                "supplier_id": s.supplier_id,
                "name": s.name,
                "newest": s.newest.isoformat() if s.newest else None,
                "registered": s.registered,
            }
            for s in result.stale
        ],
        "unwatched": [{"supplier_id": i, "name": name} for i, name in result.unwatched],
        "warnings": warnings(result),
    }
