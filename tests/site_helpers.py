"""Reading the built site's pages in tests: strict HTML5 parsing and small finders."""

from __future__ import annotations

import functools
from pathlib import Path

import html5lib

from generator.site import urls

NS = "{http://www.w3.org/1999/xhtml}"
SVG = "{http://www.w3.org/2000/svg}"


def html_files(root: Path) -> list[Path]:
    return sorted(root.rglob("*.html"))


@functools.cache
def parse(path: Path):
    """Parse strictly: any HTML5 parse error raises. Trees are shared: never modify one."""
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=True)
    return parser.parse(path.read_bytes(), transport_encoding="utf-8")


def page(root: Path, url: str):
    return parse(root / urls.file_path_for_url(url))


def find(tree, tag: str, **attrs):
    return [
        e for e in tree.iter(NS + tag) if all(e.get(k.rstrip("_")) == v for k, v in attrs.items())
    ]


def text_of(element) -> str:
    return " ".join("".join(element.itertext()).split())


def by_id(tree, ident: str):
    return next((e for e in tree.iter() if e.get("id") == ident), None)


def value_rows(tree) -> dict[str, object]:
    """Return a zone page's current values by name: the table's rows and its folds' alike."""
    tables = [t for t in find(tree, "table") if t.get("class") == "values"]
    return {
        text_of(find(tr, "th")[0]): tr
        for table in tables
        for tr in find(table, "tbody")[0].iter(NS + "tr")
    }
