"""The human-readable site: German pages rendered at build time from the derived frames.

`site_files` yields (path, bytes) like the JSON renderer, so the one writer streams both;
`begin` starts the pieces that summarise every zone while the caller renders the API.
URLs of pages and the search redirect are defined once, in `generator.site.urls`.
"""

from __future__ import annotations

from generator.site.pages import Begun, begin, site_files

__all__ = ["Begun", "begin", "site_files"]
