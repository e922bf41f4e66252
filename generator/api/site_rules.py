"""What a server of the built tree must know about the human site: its search redirect and
its 404 page. The site renders them (`generator.site.urls` re-exports these); the Python gate
applies them; on Netlify, netlify.toml declares the same rule.
"""

from __future__ import annotations

from urllib.parse import quote

NOT_FOUND_PAGE = "404.html"
"""Served with status 404 for every unknown path outside the API (also on Netlify)."""

SEARCH_REDIRECT: dict[str, object] = {
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
    placeholder = SEARCH_REDIRECT["query"]["plz"]  # type: ignore[index]
    return str(SEARCH_REDIRECT["to"]).replace(str(placeholder), quote(plz.strip(), safe=""))


def netlify_redirect_line() -> str:
    """Return the rule in Netlify's `_redirects` syntax."""
    query = " ".join(f"{k}={v}" for k, v in SEARCH_REDIRECT["query"].items())  # type: ignore[union-attr]
    return f"{SEARCH_REDIRECT['from']} {query} {SEARCH_REDIRECT['to']} {SEARCH_REDIRECT['status']}"
