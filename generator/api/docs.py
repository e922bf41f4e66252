"""The tables of `docs/api.md` made from the service contract: routes, files, kinds, evidence.

The page is written by hand around them; the tables sit between marker comments
(`<!-- generated: NAME -->` ... `<!-- end: NAME -->`) and come from the route table and the
kinds of values, so the page cannot drift from what the gates and the build do. Refresh
them with `python -m generator.api.docs` (rewrites docs/api.md); a test keeps the page
equal to the output.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

from generator.api import evidence, routes, verdicts

PAGE = Path(__file__).resolve().parents[2] / "docs" / "api.md"
_BLOCK = re.compile(r"(<!-- generated: (?P<name>[\w-]+) -->\n).*?(<!-- end: (?P=name) -->)", re.S)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _shown_path(route: routes.Route) -> str:
    """Return the path with its query: required `?name={name}`, optional in brackets."""
    path = route.path
    for p in route.params:
        if p.location != "query":
            continue
        query = f"?{p.name}={{{p.name}}}"
        path += query if p.required else f"[{query}]"
    return path


def _backing(route: routes.Route) -> str:
    if route.file is None:
        return f"none: the gate stores it and answers {route.status}"
    text = f"`{route.file}`"
    if route.filter is not None:
        text += f" (the gates pick the rows of `{route.filter.param}`)"
    return text


def route_table() -> str:
    """Return the table of every route: method, path, access, backing file, summary."""
    lines = [
        "| Method | Path | Access | Backing file | What it is |",
        "|---|---|---|---|---|",
    ]
    for r in routes.ROUTES:
        cells = (r.method, f"`{_shown_path(r)}`", r.access, _backing(r), r.summary)
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


def open_file_table() -> str:
    """Return the table of the open files that back no route (served as they are)."""
    lines = ["| URL | License |", "|---|---|"]
    odbl = set(routes.ODBL_OPEN_FILES)
    for name, path in routes.OPEN_FILES.items():
        lines.append(f"| `{routes.file_url(path)}` | {'ODbL' if name in odbl else '–'} |")
    return "\n".join(lines) + "\n"


COMPARED: dict[str, str] = {
    "exceeded": "above it (`>`)",
    "reached": "at or above it (`>=`)",
    "outside": "outside it (both ends belong to it)",
}
"""A kind's `comparison` in the words of the page."""


def kind_table() -> str:
    """Return the table of the kinds of values: what each is, when it is crossed and why."""
    lines = [
        "| kind | what it is | crossed when | the wording it rests on | state |",
        "|---|---|---|---|---|",
    ]
    for name, kind in verdicts.KINDS.items():
        if kind.exceeded:
            crossed, state = COMPARED[kind.comparison], f"`{kind.exceeded}`"
        else:
            crossed = state = "–"
        wording = _cell(kind.wording_de) if kind.wording_de else "–"
        lines.append(f"| `{name}` | {_cell(kind.meaning)} | {crossed} | {wording} | {state} |")
    return "\n".join(lines) + "\n"


TABLES: dict[str, Callable[[], str]] = {
    "routes": route_table,
    "open-files": open_file_table,
    "kinds": kind_table,
    "evidence": evidence.table,
}


def refresh(text: str) -> str:
    """Return the page with every generated table made anew; an unknown name is an error."""
    found: set[str] = set()

    def fill(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in TABLES:
            raise KeyError(f"docs/api.md names no table {name!r} (known: {sorted(TABLES)})")
        found.add(name)
        return match[1] + TABLES[name]() + match[3]

    refreshed = _BLOCK.sub(fill, text)
    missing = set(TABLES) - found
    if missing:
        raise KeyError(f"docs/api.md lacks the generated tables {sorted(missing)}")
    return refreshed


def main() -> None:
    PAGE.write_text(refresh(PAGE.read_text(encoding="utf-8")), encoding="utf-8")
    sys.stdout.write(f"refreshed the tables of {PAGE}\n")


if __name__ == "__main__":
    main()
