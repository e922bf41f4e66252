"""The gate's settings, and the files the build writes for the gates outside the published tree.

Both gates (the Python server and the edge function) apply the same rules: the route table,
the messages and HTTP manners of this package, filled with the settings below. The edge gate
reads them from `routes.json`, written into `<out>-gate/` beside the build.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.api import http, messages, routes, series
from generator.api.http import KEY_HEADER
from generator.config import Config

TIMEZONE = "Europe/Berlin"
"""Quota days are calendar days here."""
BLOB_STORES = {
    "keys": "api-keys",
    "quota": "quota",
    "requests": "access-requests",
    "bursts": "access-bursts",
}
"""The Netlify Blobs stores of the production gate's state, by role: the edge gate reads
them from routes.json, the operator's `trinkwasser keys --from netlify` from here."""


@dataclass(frozen=True)
class GateSettings:
    """Numbers and names both gates apply; defaults are the documented service limits."""

    license_url: str = Config().license_url
    key_prefix: str = Config().key_prefix
    daily_quota: int = 1000
    """Keyed requests per key per calendar day in Europe/Berlin."""
    max_body_bytes: int = 64 * 1024
    request_burst: int = 3
    """Access requests accepted per e-mail address within `request_window` seconds."""
    request_window: int = 3600
    open_max_age: int = 300
    keyed_max_age: int = 300
    max_key_length: int = 256
    """Longer keys are unknown without a lookup (a real key is far shorter)."""
    unavailable_retry_after: int = 5
    """Retry-After (seconds) of a 503 when the server runs short of resources."""

    @classmethod
    def from_config(cls, config: Config) -> GateSettings:
        return cls(license_url=config.license_url, key_prefix=config.key_prefix)

    def values(self) -> dict[str, object]:
        """Return what message and header templates may name: settings and fixed names."""
        request = routes.route("access_request")
        return {
            "license_url": self.license_url,
            "daily_quota": self.daily_quota,
            "max_body_bytes": self.max_body_bytes,
            "request_burst": self.request_burst,
            "request_window_minutes": self.request_window // 60,
            "open_max_age": self.open_max_age,
            "keyed_max_age": self.keyed_max_age,
            "unavailable_retry_after": self.unavailable_retry_after,
            "preflight_max_age": http.PREFLIGHT_MAX_AGE,
            "key_header": KEY_HEADER,
            "timezone": TIMEZONE,
            "access_request": f"{request.method} {request.path}",
        }

    def messages(self) -> dict[str, messages.Message]:
        """Return the gate messages with every setting filled in (runtime values remain)."""
        values = self.values()
        return {
            name: messages.Message(
                m.status,
                messages.fill(m.detail, values, partial=True),
                messages.fill(m.about, values, partial=True),
            )
            for name, m in messages.MESSAGES.items()
        }

    def message(self, name: str, **runtime: object) -> str:
        """Return the `detail` of one gate message (`"quota_used_up"` with `reset=...`, say)."""
        return messages.fill(messages.MESSAGES[name].detail, {**self.values(), **runtime})

    def cache(self) -> dict[str, str]:
        """Return Cache-Control by kind of answer (open, keyed, site, error, preflight)."""
        values = self.values()
        return {kind: messages.fill(policy, values) for kind, policy in http.CACHE.items()}

    def header(self, template: str, **runtime: object) -> str:
        """Fill a header template of `generator.api.http` (WWW_AUTHENTICATE, LICENSE_LINK...)."""
        return messages.fill(template, {**self.values(), **runtime})


def gate_dir(out: Path) -> Path:
    """Return the gate's directory for a build directory: `build` -> `build-gate` beside it."""
    out = Path(out).absolute()
    return out.parent / (out.name + "-gate")


def routes_document(settings: GateSettings, codes: Sequence[str] = ()) -> dict[str, Any]:
    """Return routes.json: what the edge gate needs, all of it from this package.

    Templates that name only settings arrive filled; the few runtime placeholders remain.
    `codes` are the parameter register's codes (the measurement filter's known values).
    """
    return {
        "routes": routes.to_json(),
        "settings": {
            "daily_quota": settings.daily_quota,
            "key_header": KEY_HEADER,
            "max_body_bytes": settings.max_body_bytes,
            "max_key_length": settings.max_key_length,
            "unavailable_retry_after": settings.unavailable_retry_after,
            "request_burst": settings.request_burst,
            "request_window": settings.request_window,
            "timezone": TIMEZONE,
        },
        "messages": {
            name: {"status": m.status, "detail": m.detail}
            for name, m in settings.messages().items()
        },
        "validation": {
            "email": {"pattern": routes.EMAIL_PATTERN, "message": routes.EMAIL_MESSAGE},
            "messages": messages.VALIDATION_MESSAGES,
        },
        "http": {
            "allowed_headers": ", ".join(http.ALLOWED_REQUEST_HEADERS),
            # Not the site's: Netlify's CDN serves the pages (netlify.toml sets their headers).
            "cache": {kind: v for kind, v in settings.cache().items() if kind != "site"},
            "content_disposition": http.CONTENT_DISPOSITION,
            "content_types": http.CONTENT_TYPES,
            "default_content_type": http.DEFAULT_CONTENT_TYPE,
            "download_suffixes": list(http.DOWNLOAD_SUFFIXES),
            "exposed_headers": ", ".join(http.EXPOSED_HEADERS),
            "license_link": settings.header(http.LICENSE_LINK),
            "preflight_max_age": http.PREFLIGHT_MAX_AGE,
            "stored_gzip_suffix": http.STORED_GZIP_SUFFIX,
            "www_authenticate": settings.header(http.WWW_AUTHENTICATE),
        },
        "files": {
            "hidden_dir": http.HIDDEN_DIR,
            "odbl": routes.odbl_files(),
            "segment": {
                "pattern": http.FILE_SEGMENT_PATTERN,
                "max_bytes": http.FILE_SEGMENT_MAX_BYTES,
            },
        },
        "ids": {
            "alphabet": http.ID_ALPHABET,
            "request": {"prefix": http.REQUEST_ID.prefix, "length": http.REQUEST_ID.length},
        },
        "series": {**series.layout(), "codes": sorted(codes)},
        "stores": BLOB_STORES,
    }


def routes_json(settings: GateSettings, codes: Sequence[str] = ()) -> str:
    """Return the text of routes.json (sorted keys: the same inputs give the same bytes)."""
    document = routes_document(settings, codes)
    return json.dumps(document, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
