"""The archive: every version of every source read, content-addressed, with a manifest.

```
ARCHIVE/objects/ab/abcdef...      the bytes, named by their SHA-256 (stored once)
ARCHIVE/sources/SOURCE_ID.json    the manifest: every version, every check, the import state
```

The archive is the operator's evidence of what a supplier published when; it is never
published. Every file is written to a temporary name and renamed into place, so an
interrupted run leaves the previous state, never half a file.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from generator.output.atomic import atomic_write

MANIFEST_VERSION = 1

# Import states of a version.
PENDING = "pending"
"""Read, not imported yet (or the import could not take it: tried again on the next run)."""
IMPORTED = "imported"
SUPERSEDED = "superseded"
"""A newer version came before this one was imported; only the newest is imported."""


@dataclass
class Version:
    """One distinct document a source served."""

    sha256: str
    url: str
    final_url: str
    retrieved_at: str
    """UTC, ISO 8601, seconds."""
    status: int
    etag: str | None
    last_modified: str | None
    content_type: str | None
    size: int
    import_state: str = PENDING
    document_id: str | None = None
    import_note: str | None = None
    waiting: int = 0
    """Values of the last import that wait for the operator's decision: while any do, every
    run with --import imports the version again, so a decision is taken the next day."""


@dataclass
class Manifest:
    source_id: str
    versions: list[Version] = field(default_factory=list)
    checks: list[dict[str, Any]] = field(default_factory=list)
    """Every request's outcome (when, URL, final URL, status, result, reason)."""

    @property
    def latest(self) -> Version | None:
        return self.versions[-1] if self.versions else None

    def as_json(self) -> dict[str, Any]:
        return {
            "manifest_version": MANIFEST_VERSION,
            "source_id": self.source_id,
            "versions": [asdict(v) for v in self.versions],
            "checks": self.checks,
        }


class Archive:
    def __init__(self, root: Path):
        self.root = Path(root)

    def object_path(self, sha256: str) -> Path:
        return self.root / "objects" / sha256[:2] / sha256

    def manifest_path(self, source_id: str) -> Path:
        return self.root / "sources" / f"{source_id}.json"

    def store(self, body: bytes) -> str:
        """Keep `body` (once) and return its SHA-256."""
        digest = hashlib.sha256(body).hexdigest()
        path = self.object_path(digest)
        if not path.is_file():
            atomic_write(path, body)
        return digest

    def read(self, sha256: str) -> bytes:
        return self.object_path(sha256).read_bytes()

    def manifest(self, source_id: str) -> Manifest:
        path = self.manifest_path(source_id)
        if not path.is_file():
            return Manifest(source_id)
        raw = json.loads(path.read_text(encoding="utf-8"))
        versions = [Version(**v) for v in raw.get("versions", [])]
        return Manifest(source_id, versions, list(raw.get("checks", [])))

    def save(self, manifest: Manifest) -> None:
        text = json.dumps(manifest.as_json(), ensure_ascii=False, indent=1, sort_keys=False)
        atomic_write(self.manifest_path(manifest.source_id), (text + "\n").encode("utf-8"))
