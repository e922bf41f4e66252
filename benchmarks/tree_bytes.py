"""Print where the bytes of a built tree are (the figures of docs/performance.md, issue 21).

Per folder, per kind of file, per member of a series point, and per part of the zone pages:

    python benchmarks/tree_bytes.py OUT            # OUT: a finished build tree
    python benchmarks/tree_bytes.py OUT --no-pages # skip the zone pages (the slow part)

Sizes are file sizes (`lstat`), as `benchmarks/build.py` sums them. A series member counts
with its key, its value and the comma after it, uncompressed (the series are stored
gzip-compressed); the series are read in batches of files, never all at once.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from collections import Counter
from pathlib import Path

import polars as pl

from generator.api import http

SERIES = "measurements.json.gz"
MIDDLE = '],"measurements":['
BATCH = 400  # series files per batch


def by_folder(root: Path) -> tuple[Counter[str], Counter[str], Counter[str], list[Path]]:
    """Return bytes and files per top folder, bytes per kind of file, and the series files.

    The folders under `_data` count per resource (`_data/v1/zones` ...).
    """
    size, files, kinds = Counter[str](), Counter[str](), Counter[str]()
    series = []
    for folder, _, names in os.walk(root):
        rel = Path(folder).relative_to(root).parts
        top = "/".join(rel[:3]) if rel[:1] == ("_data",) else (rel[0] if rel else ".")
        for name in names:
            path = Path(folder) / name
            n = path.lstat().st_size
            size[top] += n
            files[top] += 1
            kind = name if name in ("index.html", SERIES) else path.suffix
            if rel[:3] == ("_data", "v1", "zones") and name != SERIES:
                kind = "zone document"
            kinds[kind] += n
            if name == SERIES:
                series.append(path)
    return size, files, kinds, sorted(series)


def series_members(paths: list[Path]) -> tuple[int, Counter[str]]:
    """Return the number of points and the bytes of each member over all points."""
    members: Counter[str] = Counter()
    keys: list[str] | None = None
    points = 0
    for first in range(0, len(paths), BATCH):
        rows: list[str] = []
        with_rows = 0
        for path in paths[first : first + BATCH]:
            lines = http.served_bytes(path.name, path.read_bytes()).decode("utf-8").split("\n")
            at = lines.index(MIDDLE)
            with_rows += len(lines) - 2 > at + 1
            members["(frame lines)"] += sum(len(lines[i].encode()) + 1 for i in (0, at, -2))
            members["(documents)"] += sum(len(line.encode()) + 1 for line in lines[1:at])
            rows += [line.removesuffix(",") for line in lines[at + 1 : -2]]
        if not rows:
            continue
        if keys is None:
            keys = list(json.loads(rows[0]))
        points += len(rows)
        s = pl.Series(rows)
        length = s.str.len_bytes()
        starts = [s.str.find(json.dumps(k) + ":", literal=True) for k in keys]
        for i, key in enumerate(keys):
            # up to the next member's key, its comma included; the last up to the brace
            end = starts[i + 1] if i + 1 < len(keys) else length - 1
            members[key] += int((end - starts[i]).sum())
        # two braces and a line break per point, a comma after all but a file's last
        members["(braces, commas and line breaks of the points)"] += 4 * len(rows) - with_rows
    return points, members


PARTS = {
    "chart SVG": re.compile(rb'<svg class="chart".*?</svg>', re.S),
    "chart tables": re.compile(rb'<table class="data">.*?</table>', re.S),
    "value table": re.compile(rb'<table class="values">.*?</table>', re.S),
}


def zone_pages(root: Path) -> Counter[str]:
    """Return the bytes of the zone pages, of their big parts and of their whitespace runs."""
    out: Counter[str] = Counter()
    for path in sorted((root / "gebiete").glob("*/index.html")):
        body = path.read_bytes()
        out["zone pages"] += len(body)
        for part, pattern in PARTS.items():
            out[part] += sum(len(m.group()) for m in pattern.finditer(body))
        out["whitespace runs (all but one character)"] += sum(
            len(m.group()) - 1 for m in re.finditer(rb"\s{2,}", body)
        )
        out["chart table rows"] += body.count(b"<tr><td>")
        out["of them in one cell (colspan)"] += body.count(b"<td colspan=2>")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument("--no-pages", action="store_true", help="skip the zone pages")
    args = parser.parse_args()
    size, files, kinds, series = by_folder(args.tree)
    print(f"tree: {sum(size.values()):,} bytes in {sum(files.values()):,} files")
    for folder, n in size.most_common(12):
        print(f"  {folder:28s} {n:>15,} bytes {files[folder]:>8,} files")
    for kind, n in kinds.most_common(8):
        print(f"  {kind:28s} {n:>15,} bytes")
    points, members = series_members(series)
    print(f"series: {len(series):,} files, {points:,} points; bytes per member:")
    for key, n in members.most_common():
        print(f"  {key:48s} {n:>15,} {n / max(points, 1):7.1f} per point")
    if not args.no_pages:
        for part, n in zone_pages(args.tree).items():
            print(f"  {part:48s} {n:>15,}")


if __name__ == "__main__":
    main()
