"""Static file serving: the human site, and the open files under /v1 that are no route.

What Netlify's CDN does in production: pretty URLs, directory redirects, the 404 page and
the site's search redirect (from `generator.api.site_rules`, as netlify.toml declares it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from urllib.parse import parse_qsl, quote

from generator.api import http, site_rules
from generator.api.settings import GateSettings
from generator.gate.files import FileServer
from generator.gate.responses import Headers, Manners, Response, header

_SEARCH_PATH = site_rules.SEARCH_REDIRECT["from"].strip("/")
_SEARCH_QUERY = next(iter(site_rules.SEARCH_REDIRECT["query"]))
_READ = ("GET", "HEAD")


class StaticSite:
    """Answers paths that are no API route."""

    def __init__(
        self,
        files: FileServer,
        manners: Manners,
        settings: GateSettings,
        is_licensed: Callable[[str], bool],
    ):
        self.files = files
        self.manners = manners
        self.settings = settings
        self.is_licensed = is_licensed

    def answer(
        self, method: str, segments: list[str], query: str, headers: Mapping[str, str]
    ) -> Response:
        api = segments[0] == "v1"
        rel = "/".join(segments)
        if rel.rstrip("/") == _SEARCH_PATH and method in _READ:
            redirect = self._search_redirect(query)
            if redirect is not None:
                return redirect
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

    def _search_redirect(self, query: str) -> Response | None:
        """Apply the site's search rule (Netlify: `/suche plz=:plz /plz/:plz/ 302`)."""
        value = dict(parse_qsl(query)).get(_SEARCH_QUERY)
        if not value:
            return None  # the rule needs the parameter, as on Netlify: the 404 page follows
        location = site_rules.search_target(value)
        status = site_rules.SEARCH_REDIRECT["status"]
        headers = self.manners.base(None, self.manners.cache["error"])
        return Response(status, [*headers, header("location", location)])
