"""Locate templates and static assets: inside the installed package or beside it."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).parent.parent  # generator/, two levels above this file


def _find(name: str) -> Path:
    # The wheel carries them as generator/templates and generator/static (pyproject
    # force-include); an editable checkout keeps them at the top level.
    inside = _PACKAGE / name
    return inside if inside.is_dir() else _PACKAGE.parent / name


def templates_dir() -> Path:
    return _find("templates")


def static_dir() -> Path:
    return _find("static")
