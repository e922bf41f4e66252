"""Static file serving: the human site, and the open files under /v1 that are no route.

What Netlify's CDN does in production: pretty URLs, directory redirects, the 404 page; and
what the edge function `search.ts` does there: the site's search without JavaScript, from
the places the build wrote beside the tree (`generator.api.site_rules`). With `serve
--demo-key`, the API reference's demo-key address answers the local demo key.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote

from generator.api import http, site_rules
from generator.api.settings import GateSettings
from generator.gate.files import FileServer
from generator.gate.responses import Headers, Manners, Response, header

_SEARCH_PATH = site_rules.SEARCH_PATH.strip("/")
_DEMO_KEY = site_rules.DEMO_KEY_PATH.strip("/")
_READ = ("GET", "HEAD")


class StaticSite:
    """Answers paths that are no API route."""

    def __init__(
        self,
        files: FileServer,
        manners: Manners,
        settings: GateSettings,
        is_licensed: Callable[[str], bool],
        search_file: Path | None = None,
        demo_key: str | None = None,
    ):
        self.files = files
        self.manners = manners
        self.settings = settings
        self.is_licensed = is_licensed
        self.search_file = search_file
        self.demo_key = demo_key
        self._places: tuple[tuple[int, int, int], dict[str, str]] | None = None

    def answer(
        self, method: str, segments: list[str], query: str, headers: Mapping[str, str]
    ) -> Response:
        api = segments[0] == "v1"
        rel = "/".join(segments)
        if rel.rstrip("/") == _SEARCH_PATH and method in _READ:
            return self._search_redirect(query)
        if self.demo_key is not None and rel == _DEMO_KEY and method in _READ:
            # In place of the built file's null: the key `serve --demo-key` printed.
            base = self.manners.base(http.JSON_TYPE, self.manners.cache["error"])
            return Response(200, base, site_rules.demo_key_document(self.demo_key))
        candidates = [rel + "index.html"] if rel == "" or rel.endswith("/") else [rel]
        if not api and self.files.is_dir(candidates[0]):
            location = quote(f"/{rel}/") + (f"?{query}" if query else "")
            headers_out = [*self.manners.base(None, self.manners.cache["site"])]
            return Response(301, [*headers_out, header("location", location)])
        if not api and not rel.endswith("/") and rel:
            candidates.append(rel + ".html")  # pretty URLs, as Netlify serves them
        allow = "GET, HEAD, OPTIONS"
        for candidate in candidates:
            if not self.files.is_file(candidate):
                continue
            if method == "OPTIONS":
                return self.manners.preflight(allow)
            if method not in _READ:
                return self.manners.message("method_not_allowed", [header("allow", allow)])
            extra: Headers = [self.manners.license_link()] if self.is_licensed(candidate) else []
            cache = self.manners.cache["open" if api else "site"]
            response = self.files.file(candidate, headers, cache, extra)
            if response is not None:
                return response
        if method == "OPTIONS" and api:
            return self.manners.preflight("GET, HEAD, OPTIONS, POST")
        if not api:
            page = self.files.inside(site_rules.NOT_FOUND_PAGE)
            if page is not None and self.files.is_file(site_rules.NOT_FOUND_PAGE):
                cache = self.manners.cache["error"]
                base = self.manners.base(http.CONTENT_TYPES[".html"], cache)
                return Response(404, base, page.read_bytes())
        return self.manners.not_found()

    def _search_redirect(self, query: str) -> Response:
        """Lead the search form to a PLZ, a place or the index of places (`site_rules`)."""
        # The first value of the field, as the edge function's URLSearchParams.get reads it.
        field = site_rules.SEARCH_FIELD
        typed = next((v for k, v in parse_qsl(query) if k == field), "")
        location = site_rules.search_target(typed, self._known_places())
        headers = self.manners.base(None, self.manners.cache["error"])
        return Response(site_rules.SEARCH_STATUS, [*headers, header("location", location)])

    def _known_places(self) -> dict[str, str]:
        """Return the places of the build's `suche.json`, read again when the build wrote it.

        Without the file (a tree copied without its gate directory) no place is known: a
        PLZ still leads to its page, anything else to the index of places.
        """
        if self.search_file is None:
            return {}
        try:
            st = os.stat(self.search_file)
        except FileNotFoundError:
            return {}
        stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
        if self._places is None or self._places[0] != stamp:
            doc: dict[str, Any] = json.loads(self.search_file.read_bytes())
            self._places = (stamp, doc["places"])
        return self._places[1]
