"""Compiled templates kept in a build's state folder serve the next process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
import pytest

from generator.output import state as build_state
from generator.site import compiled


def _environment(folder: Path, source: str, compiles: bool) -> jinja2.Environment:
    """Return an environment as a new process has it: nothing in memory, `folder` kept."""
    cache = compiled._CompiledTemplates()
    cache.keep_in(folder)
    env = jinja2.Environment(loader=jinja2.DictLoader({"t.html": source}), bytecode_cache=cache)
    if not compiles:

        def refuse(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError("compiled although a compiled template was kept")

        env.compile = refuse  # type: ignore[method-assign]
    return env


def test_a_template_compiled_once_is_taken_from_the_folder(tmp_path: Path) -> None:
    _environment(tmp_path, "Hallo {{ x }}", compiles=True).get_template("t.html")
    assert len(list(tmp_path.glob("*.jinja"))) == 1
    env = _environment(tmp_path, "Hallo {{ x }}", compiles=False)
    assert env.get_template("t.html").render(x="Welt") == "Hallo Welt"


def test_an_edited_template_is_compiled_anew(tmp_path: Path) -> None:
    _environment(tmp_path, "Hallo {{ x }}", compiles=True).get_template("t.html")
    with pytest.raises(AssertionError, match="compiled although"):
        _environment(tmp_path, "Tschüss {{ x }}", compiles=False).get_template("t.html")
    env = _environment(tmp_path, "Tschüss {{ x }}", compiles=True)
    assert env.get_template("t.html").render(x="Welt") == "Tschüss Welt"


def test_a_damaged_entry_is_compiled_anew(tmp_path: Path) -> None:
    _environment(tmp_path, "Hallo {{ x }}", compiles=True).get_template("t.html")
    (kept,) = tmp_path.glob("*.jinja")
    kept.write_bytes(kept.read_bytes()[:20])
    env = _environment(tmp_path, "Hallo {{ x }}", compiles=True)
    assert env.get_template("t.html").render(x="Welt") == "Hallo Welt"


def test_without_a_folder_nothing_is_written(tmp_path: Path) -> None:
    cache = compiled._CompiledTemplates()
    env = jinja2.Environment(loader=jinja2.DictLoader({"t.html": "x"}), bytecode_cache=cache)
    env.get_template("t.html")
    assert not any(tmp_path.iterdir())


def test_a_build_keeps_its_compiled_templates_in_its_state(golden_site: Path) -> None:

    assert list(build_state.TEMPLATES.path(golden_site).glob("*.jinja"))
