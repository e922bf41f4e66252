"""docs/architecture.md names only paths that exist, and every module of the packages it maps."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"
TOP = ("generator", "docs", "templates", "netlify", "tests", "static", "tools", "scripts")


def _named_paths() -> set[str]:
    text = PAGE.read_text(encoding="utf-8")
    # `generator/derive.py`, `generator/api/`, and the paths in the diagram
    words = re.findall(r"[\w.-]+(?:/[\w.-]+)*/?", text)
    return {w for w in words if w.split("/")[0] in TOP and "/" in w}


def test_every_path_it_names_exists():
    named = _named_paths()
    assert "generator/derive.py" in named and "generator/api/" in named  # the pattern works
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert not missing


def test_it_maps_every_module_of_every_package_and_the_top_level():
    named = _named_paths()
    top = {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "generator").glob("*.py")
        if p.name not in ("__init__.py", "__main__.py")
    }
    assert not sorted(top - named), "top level"
    packages = sorted(
        p.name for p in (ROOT / "generator").iterdir() if (p / "__init__.py").is_file()
    )
    assert "incremental" in packages and "ordinance" in packages
    for package in packages:
        modules = {
            p.relative_to(ROOT).as_posix()
            for p in (ROOT / "generator" / package).glob("*.py")
            if p.name != "__init__.py"
        }
        assert not sorted(modules - named), package


def test_the_readme_links_it():
    assert "](docs/architecture.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_no_file_cites_the_design_outside_the_repository():
    """What the code relies on from the design is in docs/, cited by its section there."""
    # Spelled in parts, so this test does not find itself.
    outside = ("DESIGN" + " §", "/work/" + "shared", "../" + "shared/")
    folders = ("generator", "netlify", "tests", "docs", "tools", "scripts", "templates", "static")
    suffixes = {".py", ".ts", ".js", ".md", ".html", ".sh", ".toml", ".css"}
    files = [ROOT / "README.md", ROOT / "pyproject.toml"]
    for folder in folders:
        files += [
            p
            for p in (ROOT / folder).rglob("*")
            if p.suffix in suffixes and "golden" not in p.parts and "node_modules" not in p.parts
        ]
    citing = sorted(
        p.relative_to(ROOT).as_posix()
        for p in files
        if p.is_file() and any(word in p.read_text(encoding="utf-8") for word in outside)
    )
    assert not citing


def test_the_cited_sections_exist():
    text = PAGE.read_text(encoding="utf-8")
    for section in ("### The order of checks", "### Codes are plain strings"):
        assert section in text
