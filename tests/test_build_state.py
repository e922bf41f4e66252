"""`build-state/` holds what `generator/output/state.py` declares, and nothing else.

The declaration is the one owner of the folder's names: every file a build leaves there is
declared, every declared file is there (but the optional ones, when a build had no cause to
write them), and no module of the package joins a name onto the folder itself.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from generator.build import build
from generator.config import Config
from generator.output import state
from generator.output.state import STATE_FILES, state_dir, state_path
from tests.helpers import AS_OF, golden_data_in_row_groups, golden_series

PACKAGE = Path(__file__).resolve().parents[1] / "generator"


def undeclared(out: Path, *, optional: bool) -> tuple[list[str], list[str]]:
    """Return the files under `build-state/` no declaration holds, and the declared missing.

    `optional`: whether the optional ones must be there too.
    """
    folder = state_dir(out)
    declared = {file.name: file for file in STATE_FILES}

    def is_declared(rel: Path, is_dir: bool) -> bool:
        file = declared.get(rel.parts[0])
        if file is None:
            return False
        if len(rel.parts) == 1:  # a file, or a folder, of the state itself
            return file.is_folder == is_dir
        # A file in a declared folder, by one of its patterns (no subfolders).
        return len(rel.parts) == 2 and not is_dir and file.holds(rel.name)

    strays = [
        str(path.relative_to(folder))
        for path in sorted(folder.rglob("*"))
        if not is_declared(path.relative_to(folder), path.is_dir())
    ]
    missing = [
        file.name
        for file in STATE_FILES
        if (optional or not file.optional)
        and not (file.path(out).is_dir() if file.is_folder else file.path(out).is_file())
    ]
    return strays, missing


def test_a_golden_build_leaves_what_is_declared(golden_site: Path) -> None:
    strays, missing = undeclared(golden_site, optional=False)
    assert strays == []
    assert missing == []
    # A build of a CSV series that replaced no tree has no cause for the optional ones.
    assert {f.name for f in STATE_FILES if f.optional and f.path(golden_site).exists()} == set()


@pytest.mark.slow
def test_a_second_build_of_a_parquet_series_leaves_every_declared_file(tmp_path: Path) -> None:
    series = golden_series()
    data = golden_data_in_row_groups(tmp_path, [series.head(40), series.slice(40)])
    out = tmp_path / "build"
    build(data, out, AS_OF, Config())
    build(data, out, AS_OF, Config(), force=True)  # replaces a tree: the staging tree is kept
    assert undeclared(out, optional=True) == ([], [])


def test_an_undeclared_file_is_found(golden_build_copy: Path) -> None:
    (state_dir(golden_build_copy) / "stray.json").write_text("{}")
    (state.CURRENT_VALUES.path(golden_build_copy) / "stray.txt").write_text("")
    strays, _ = undeclared(golden_build_copy, optional=False)
    assert strays == ["current_values/stray.txt", "stray.json"]
    state.ZONE_ROWS.path(golden_build_copy).unlink()
    assert undeclared(golden_build_copy, optional=False)[1] == ["zone_rows.parquet"]


def test_a_name_the_declaration_does_not_hold_is_an_error(tmp_path: Path) -> None:
    out = tmp_path / "build"
    assert state_path(out, "zone_rows.parquet") == tmp_path / "build-state" / "zone_rows.parquet"
    runs = state_path(out, "current_values/1-100-0123456789abcdef.arrow")
    assert runs.parent == state.CURRENT_VALUES.path(out)
    for name in ("zones.json", "current_values/notes.txt", "current_values", "plz.parquet/x"):
        with pytest.raises(ValueError, match="declares no"):
            state_path(out, name)


def test_each_declaration_names_real_modules_and_its_writer_uses_it() -> None:
    constants = {v: k for k, v in vars(state).items() if isinstance(v, state.StateFile)}
    assert set(constants) == set(STATE_FILES)
    for file in STATE_FILES:
        for module in (file.writer, *file.readers):
            importlib.import_module(module)
        writer = importlib.import_module(file.writer)
        assert writer.__file__ is not None
        assert constants[file] in Path(writer.__file__).read_text(encoding="utf-8"), file.name


def test_no_module_joins_a_name_onto_the_state_folder_itself() -> None:
    """`state_dir(out)` is called in `generator/output/state.py` alone."""
    callers = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                if name == "state_dir":
                    callers.append(str(path.relative_to(PACKAGE)))
    assert set(callers) == {"output/state.py"}
