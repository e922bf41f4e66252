"""The operator's configuration (`trinkwasser.toml`): typed, validated up front.

Every field checks itself and all problems are reported together, each with its key.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path

from generator.errors import ConfigError

DEFAULT_FILE = "trinkwasser.toml"
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_URL = re.compile(r"^https?://[^\s/]+(/[^\s]*)?$")


@dataclass(frozen=True)
class Config:
    """Who publishes the data and where; defaults describe the bundled sample."""

    operator: str = "Trinkwasserdaten (Beispielbetrieb)"
    base_url: str = "http://127.0.0.1:8000"
    contact: str = "kontakt@trinkwasserdaten.example"
    license_url: str = "https://opendatacommons.org/licenses/odbl/1-0/"
    key_prefix: str = "twd_"


# The settings given as text, each with its check and what the check wants.
_CHECKS: dict[str, tuple[Callable[[str], bool], str]] = {
    "operator": (lambda v: bool(v.strip()) and len(v) <= 200, "a non-empty name"),
    "base_url": (
        lambda v: bool(_URL.match(v)) and not v.endswith("/"),
        "an http(s) URL without a trailing slash",
    ),
    "contact": (lambda v: bool(_EMAIL.match(v)), "an e-mail address"),
    "license_url": (lambda v: bool(_URL.match(v)), "an http(s) URL"),
    "key_prefix": (
        lambda v: bool(re.fullmatch(r"[a-z]{2,8}_", v)),
        "2-8 lowercase letters followed by '_'",
    ),
}


def load_config(path: Path | None = None) -> Config:
    """Read `path` (or ./trinkwasser.toml if it exists); return defaults otherwise."""
    if path is None:
        candidate = Path(DEFAULT_FILE)
        if not candidate.is_file():
            return Config()
        path = candidate
    try:
        raw = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from exc
    section = raw.get("site", {})
    errors: list[str] = []
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: [site] must be a table")
    known = {f.name for f in fields(Config)}
    for key in section:
        if key not in known:
            errors.append(f"site.{key}: unknown setting (known: {', '.join(sorted(known))})")
    for key in set(raw) - {"site"}:
        errors.append(f"{key}: unknown section (only [site] is read)")
    values = {}
    for key, (ok, what) in _CHECKS.items():
        if key not in section:
            continue
        value = section[key]
        if not isinstance(value, str) or not ok(value):
            errors.append(f"site.{key}: must be {what}, got {value!r}")
        else:
            values[key] = value
    if errors:
        raise ConfigError(f"{path} is invalid:\n  " + "\n  ".join(errors))
    return Config(**values)
