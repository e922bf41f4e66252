"""The gate's settings, and the files the build writes for the gates outside the published tree.

Both gates (this Python server and the edge function) read the same rules: the route table
plus the settings below, written as `routes.json` into `<out>-gate/` beside the build.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from generator import API_VERSION
from generator.api import routes
from generator.config import Config

KEY_HEADER = "X-Api-Key"
TIMEZONE = "Europe/Berlin"


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

    @classmethod
    def from_config(cls, config: Config) -> GateSettings:
        return cls(license_url=config.license_url, key_prefix=config.key_prefix)

    def to_json(self) -> dict:
        return dict(asdict(self), key_header=KEY_HEADER, timezone=TIMEZONE)


def gate_dir(out: Path) -> Path:
    """Return the gate's directory for a build directory: `build` -> `build-gate` beside it."""
    out = Path(out).absolute()
    return out.parent / (out.name + "-gate")


def routes_document(settings: GateSettings) -> dict:
    """Return routes.json: the route table, the validation rules and the gate settings."""
    return dict(routes.to_json(), api_version=API_VERSION, settings=settings.to_json())


def write_gate_dir(out: Path, config: Config) -> Path:
    """Write routes.json for the gates next to the build (never into the published tree)."""
    target = gate_dir(out)
    target.mkdir(parents=True, exist_ok=True)
    document = routes_document(GateSettings.from_config(config))
    text = json.dumps(document, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    _atomic_write(target / "routes.json", text.encode("utf-8"))
    return target


def _atomic_write(path: Path, data: bytes) -> None:
    # A reader (a running gate, a deploy) sees the old file or the new one, never half.
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o644)  # mkstemp makes it private; this file is no secret
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
