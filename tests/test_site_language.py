"""The site speaks German.

No English sentences and no numbers with a decimal point in what a reader sees, on every page
of the golden tree and of the bundled sample.

Exempt are what is English or verbatim on purpose: elements marked `lang="en"` (the English
name of a parameter, the schemas' field descriptions on the API page), code (`code`, `pre`,
`samp`, `kbd`), and values quoted as the supplier published them (`class="verbatim"`, and
the last value in a chart's description), whose numbers may have a decimal point.
"""

from __future__ import annotations

import re

import polars as pl
import pytest

from generator import load
from tests.site_helpers import NS, html_files, parse, text_of

EXEMPT_TAGS = {NS + t for t in ("code", "pre", "samp", "kbd", "script", "style", "template")}
ENGLISH = re.compile(
    r"\b(the|and|of|with|is|are|were|this|that|which|from|for|to|by|or|only|not|"
    r"value|values|limit|limits|above|below|see|must|should|when|where|has|have|been|"
    r"its|it|be|no|per day|between|than|since|until|applies|measured|sample)\b"
)
"""Short English words that German prose does not use (case-sensitive: `Not` is German)."""
DATE = re.compile(
    r"\b\d{1,2}\.\d{1,2}\.\d{4}\b|\b\d{1,2}\. (Januar|Februar|März|April|Mai|Juni|"
    r"Juli|August|September|Oktober|November|Dezember)\b"
)
VERSION = re.compile(
    r"(ODbL|Version|Beta-Version|Lizenz|API|OpenAPI|Abschnitt|Nr\.|§)\s*\(?[A-Za-z)]*\s*"
    r"\d+(\.\d+)+(-\w+)?"
)
"""Numbers with points that are no decimals: versions and sections (`ODbL 4.4`, `1.0.0-beta`)."""
THOUSANDS = re.compile(r"\b[1-9]\d{0,2}(\.\d{3})+\b")
"""German groups of thousands (`31.500`, `1.145`): a point, but no decimal one."""
DECIMAL_POINT = re.compile(r"\d\.\d")
PATH = re.compile(r"\S*/\S*")
"""Paths and units (`/v1/parameters/{code}/limits`, `mg/l`) are no prose."""


SVG_DESC = "{http://www.w3.org/2000/svg}desc"


def visible_text(element, exempt: bool = False, quoted: bool = False) -> list[tuple[str, bool]]:
    """Return the text a reader meets in `element`, in pieces.

    Each piece says whether it quotes a value as published; exempt parts are left out.
    """
    tag = element.tag if isinstance(element.tag, str) else ""
    lang = element.get("lang")
    classes = (element.get("class") or "").split()
    skip = (
        exempt
        or tag in EXEMPT_TAGS
        or (lang is not None and not lang.startswith("de"))
        or "verbatim" in classes
        or element.get("hidden") is not None
    )
    # A chart's description names the series' last value as published (charts.py).
    quoted = quoted or tag == SVG_DESC
    pieces = [] if skip or not element.text else [(element.text, quoted)]
    for child in element:
        pieces += visible_text(child, skip, quoted)
        if child.tail and not skip:
            pieces.append((child.tail, quoted))  # the tail belongs here, not to the child
    return pieces


def problems(text: str, quoted: bool = False) -> list[str]:
    prose = PATH.sub(" ", text)
    found = [f"English: {m.group(0)!r}" for m in ENGLISH.finditer(prose)]
    if not quoted:
        plain = THOUSANDS.sub(" ", VERSION.sub(" ", DATE.sub(" ", prose)))
        found += [f"decimal point: {m.group(0)!r}" for m in DECIMAL_POINT.finditer(plain)]
    return found


def page_problems(root) -> list[str]:
    report = []
    for path in html_files(root):
        tree = parse(path)
        head = [text_of(e) for e in tree.iter(NS + "title")] + [
            e.get("content") for e in tree.iter(NS + "meta") if e.get("name") == "description"
        ]
        body = next(tree.iter(NS + "body"))
        for piece, quoted in visible_text(body) + [(t, False) for t in head]:
            text = " ".join(piece.split())
            for problem in problems(text, quoted):
                report.append(f"{path.relative_to(root)}: {problem} in {text[:90]!r}")
    return report


@pytest.mark.parametrize("tree", ["golden", "sample"])
def test_every_page_reads_german(tree, golden_site, sample_build):
    root = golden_site if tree == "golden" else sample_build
    report = page_problems(root)
    assert not report, f"{len(report)} problems:\n" + "\n".join(sorted(set(report))[:60])


def test_the_check_finds_english_and_decimal_points():
    assert problems("Grenzwert 0,1 µg/l seit 12.01.2026, ODbL 1.0, Abschnitt 4.4") == []
    assert problems("Der Wert (Not) liegt bei 5,3 ng/l") == []
    assert problems("The value is above the limit") != []
    assert problems("gemessen 15.3 mg/l") == ["decimal point: '5.3'"]
    assert problems("etwa 31.500 Menschen, 1.145 µS/cm") == []
    assert problems("0.005 ug/l") == ["decimal point: '0.0'"]
    assert problems("zuletzt 0.005 ug/l", quoted=True) == []


def test_every_limit_note_has_german_words():
    # Parameter pages show only `note_de`: an English note without it would vanish unseen.
    limits = pl.read_csv(load.reference_dir() / "limits.csv", infer_schema_length=0)
    english_only = limits.filter(pl.col("note").is_not_null() & pl.col("note_de").is_null())
    assert english_only.is_empty(), english_only.select("code", "note").rows()
    assert limits["note_de"].drop_nulls().len() > 100
