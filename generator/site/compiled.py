"""Compiled templates, kept for every build of a process and the next build's process."""

from __future__ import annotations

import contextlib
from pathlib import Path

import jinja2

from generator.output.atomic import atomic_write


class _CompiledTemplates(jinja2.BytecodeCache):
    """Compiled templates kept in memory for the life of the process, and in a folder.

    Every build makes a new environment (its globals differ); without this each one
    parsed and compiled every template again, a third of a second per build of a small
    dataset. A build also keeps them in its own state folder (`keep_in`), so the next
    process need not compile them either (0.1 s of a daily update). Jinja checks each entry
    against the template's source and its own and Python's version, so an edited template
    is compiled anew.
    """

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}
        self.folder: Path | None = None
        """Where the build keeps them between processes (its `build-state/`); None: nowhere."""
        self._there: set[Path] = set()
        """The files known to hold what `_code` holds (read from there, or written)."""

    def keep_in(self, folder: Path | None) -> None:
        self.folder = folder

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        kept = None if self.folder is None else self.folder / f"{bucket.key}.jinja"
        code = self._code.get(bucket.key)
        if code is None and kept is not None:
            with contextlib.suppress(OSError):
                code = kept.read_bytes()
                self._there.add(kept)
        if code is None:
            return
        try:
            bucket.bytecode_from_string(code)
        except Exception:  # noqa: BLE001 - a damaged entry is compiled anew
            bucket.reset()
        if bucket.code is not None:
            self._code[bucket.key] = code
            if kept is not None and kept not in self._there:
                self._write(kept, code)  # compiled for another folder of this process

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code[bucket.key] = bucket.bytecode_to_string()
        if self.folder is not None:
            self._write(self.folder / f"{bucket.key}.jinja", code)

    def _write(self, kept: Path, code: bytes) -> None:
        with contextlib.suppress(OSError):  # a cache: the build goes on without it
            kept.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(kept, code)
            self._there.add(kept)


TEMPLATES = _CompiledTemplates()
"""The one cache of every environment of the process (`generator.site.environment.environment`)."""


def keep_compiled_templates(folder: Path | None) -> None:
    """Keep the compiled templates in `folder` for later processes (None: in memory only)."""
    TEMPLATES.keep_in(folder)
