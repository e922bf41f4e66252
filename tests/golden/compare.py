"""Comparing two build trees file by file, with a readable account of what differs."""

from __future__ import annotations

import contextlib
import difflib
import json
import re
from pathlib import Path

from generator.api import http
from tests.helpers import tree_bytes

SHOWN_DIFFS = 3
DIFF_LINES = 60
HINT = "run `python -m tests.golden.regenerate` if the change is intended"


def files(root: Path, skip: tuple[str, ...] = ()) -> dict[str, Path]:
    found = {p.relative_to(root).as_posix(): p for p in root.rglob("*") if p.is_file()}
    return {path: p for path, p in found.items() if not path.startswith(skip)}


def readable_lines(path: str, data: bytes) -> list[str] | None:
    """Return a file as lines worth diffing, or None for binary files."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if http.served_name(path).endswith(".json"):
        with contextlib.suppress(ValueError):  # not JSON after all: diff it as it is
            text = json.dumps(json.loads(text), ensure_ascii=False, indent=1, sort_keys=True)
    elif path.endswith((".html", ".svg")):
        text = re.sub(r">(?=<)", ">\n", text)  # pages are written with few line breaks
    return text.splitlines()


def file_diff(path: str, expected: bytes, actual: bytes) -> str:
    old, new = readable_lines(path, expected), readable_lines(path, actual)
    if old is None or new is None:
        return f"{path}: binary, {len(expected)} bytes expected, {len(actual)} bytes built\n"
    diff = list(
        difflib.unified_diff(old, new, f"expected/{path}", f"built/{path}", n=2, lineterm="")
    )
    cut = len(diff) > DIFF_LINES
    return "\n".join(diff[:DIFF_LINES] + ([f"... ({len(diff) - DIFF_LINES} more lines)"] * cut))


def describe_differences(built: Path, expected: Path, skip: tuple[str, ...] = ()) -> str:
    """Return what differs between two trees, readably; empty when they are identical.

    Paths under `skip` are left out of the built tree (the expected one never has them).
    """
    actual, wanted = files(built, skip), files(expected)
    missing = sorted(set(wanted) - set(actual))
    extra = sorted(set(actual) - set(wanted))
    # A stored `.gz` file is compared by what it answers: zlib builds may compress differently.
    changed = sorted(
        p for p in set(actual) & set(wanted) if tree_bytes(actual[p]) != tree_bytes(wanted[p])
    )
    if not (missing or extra or changed):
        return ""
    parts = []
    for title, paths in (("missing", missing), ("extra", extra), ("changed", changed)):
        if paths:
            listed = "\n  ".join(paths[:20]) + (
                f"\n  ... {len(paths) - 20} more" * (len(paths) > 20)
            )
            parts.append(f"{len(paths)} {title} file(s):\n  {listed}")
    for path in changed[:SHOWN_DIFFS]:
        parts.append(file_diff(path, tree_bytes(wanted[path]), tree_bytes(actual[path])))
    parts.append(HINT)
    return "\n\n".join(parts)
