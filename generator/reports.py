"""Reports for machines: the `--json` output of `validate`, `import` and `fetch`.

Each report is one JSON object on stdout with `report` naming its schema and version
(`trinkwasser.validate/1`, `trinkwasser.import/1`, `trinkwasser.fetch/1`) and `ok`; a
command that stops with an error prints `trinkwasser.error/1` instead, with the message and,
for bad source data, every problem. The schemas are documented in docs/operations.md; a
field is never renamed or removed within a version.
"""

from __future__ import annotations

import json
from typing import Any

import polars as pl

from generator.contract import rules

VALIDATE = "trinkwasser.validate/1"
IMPORT = "trinkwasser.import/1"
FETCH = "trinkwasser.fetch/1"
ERROR = "trinkwasser.error/1"


def dumps(report: dict[str, Any]) -> str:
    """Return the report as one line of JSON (UTF-8 text, keys in their order)."""
    return json.dumps(report, ensure_ascii=False, default=str)


def problems(frame: pl.DataFrame) -> list[dict[str, Any]]:
    """Return each problem as `table, row, column, value, rule, message, fix`."""
    fixes = {r.name: r.fix for r in rules.ALL}
    out = []
    for p in frame.iter_rows(named=True):
        out.append(
            {
                "table": p["table"] or None,
                "row": p["row"],
                "column": p["column"],
                "value": p["value"],
                "rule": p["rule"],
                "message": p["message"],
                "fix": fixes.get(p["rule"]),
            }
        )
    return out


def error(message: str, exit_code: int, found: list[dict[str, Any]] | None = None) -> str:
    """Return the report of a command that stopped with an error."""
    report: dict[str, Any] = {"report": ERROR, "ok": False, "exit_code": exit_code}
    report["error"] = message
    report["problems"] = found or []
    return dumps(report)
