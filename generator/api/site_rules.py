"""What a server of the built tree must know about the human site.

Its search redirect and its 404 page. The site renders them (`generator.site.urls`
re-exports these); the Python gate applies them; on Netlify, netlify.toml declares the same
rule.
"""

from __future__ import annotations

from typing import TypedDict
from urllib.parse import quote

NOT_FOUND_PAGE = "404.html"
"""Served with status 404 for every unknown path outside the API (also on Netlify)."""

# A Netlify redirect rule, spelled as in netlify.toml (`from` is a keyword, hence this form).
Redirect = TypedDict("Redirect", {"from": str, "query": dict[str, str], "to": str, "status": int})

SEARCH_REDIRECT: Redirect = {
    "from": "/suche",
    "query": {"plz": ":plz"},
    "to": "/plz/:plz/",
    "status": 302,
}
"""The PLZ search without JavaScript: `/suche?plz=76437` -> `/plz/76437/`.

Netlify: `/suche plz=:plz /plz/:plz/ 302`; the Python server calls `search_target`.
"""


def search_target(plz: str) -> str:
    """Return where the search form lands for `plz` (the redirect rule, applied once)."""
    placeholder = SEARCH_REDIRECT["query"]["plz"]
    return SEARCH_REDIRECT["to"].replace(placeholder, quote(plz.strip(), safe=""))
