"""docs/api.md's route, open-file and kind tables are generated from the service contract."""

from __future__ import annotations

import pytest

from generator.api import docs, routes, verdicts


def test_the_page_equals_the_generated_tables():
    text = docs.PAGE.read_text(encoding="utf-8")
    assert docs.refresh(text) == text, "run `python -m generator.api.docs`"


def test_every_route_and_kind_is_in_the_page():
    text = docs.PAGE.read_text(encoding="utf-8")
    for r in routes.ROUTES:
        assert f"| {r.method} | `{r.path}" in text and r.summary in text
    for name, kind in verdicts.KINDS.items():
        meaning = kind.meaning.replace("|", "\\|")
        assert f"| `{name}` | {meaning} |" in text


def test_a_new_route_appears_in_the_table(monkeypatch):
    extra = routes.Route("extra", "GET", "/v1/extra", "Something new", "open", file="v1/x.json")
    monkeypatch.setattr(routes, "ROUTES", (*routes.ROUTES, extra))
    assert "| GET | `/v1/extra` | open | `v1/x.json` | Something new |" in docs.route_table()


def test_unknown_or_missing_tables_are_errors():
    with pytest.raises(KeyError, match="no table 'nope'"):
        docs.refresh("<!-- generated: nope -->\n<!-- end: nope -->\n")
    with pytest.raises(KeyError, match="lacks the generated tables"):
        docs.refresh("no tables at all\n")
