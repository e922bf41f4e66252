"""The import graph of `generator/` has no circle, lazy and type-only imports included.

A circle hidden behind an import inside a function or under `if TYPE_CHECKING:` still
ties two modules together: neither can be read, tested or moved without the other.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "generator"


def _modules() -> dict[str, Path]:
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """Return the module `name` is or lies in (`generator.api.routes.url` -> its module)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, set[str]]:
    """Return module -> the modules of the package it imports, wherever the import stands."""
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, *([node.module] if node.module else [])])
                # `from generator.api import routes` imports the module `routes`.
                targets = [f"{base}.{alias.name}" for alias in node.names]
            for target in targets:
                found = _known(target, modules)
                if found and found != name:
                    graph[name].add(found)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return the strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph[v]:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_sees_lazy_and_type_only_imports():
    graph = import_graph()
    # Inside a function, under TYPE_CHECKING, and at the top (`from package import module`).
    assert "generator.mapping.population" in graph["generator.mapping.run"]
    assert "generator.mapping.options" in graph["generator.mapping.zones"]
    assert "generator.derive" in graph["generator.build"]


def test_the_cycle_finder_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_generator_has_no_import_circle():
    assert cycles(import_graph()) == []


def test_no_test_module_imports_another_test_module():
    """What several test modules share lives in a helpers module, never in a test module."""
    tests = Path(__file__).resolve().parent
    offenders = []
    for path in sorted(tests.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                if name.rpartition(".")[2].startswith("test_"):
                    offenders.append(f"{path.relative_to(tests)} imports {name}")
    assert offenders == []


def package_of(module: str) -> str:
    """Return the package a module belongs to: a subpackage of `generator`, or itself.

    `generator.api.routes` -> `generator.api`; a top-level module such as `generator.build`
    is a package of its own.
    """
    parts = module.split(".")
    return ".".join(parts[:2])


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Return package -> the other packages its modules import."""
    packages: dict[str, set[str]] = {}
    for module, imported in graph.items():
        mine = package_of(module)
        packages.setdefault(mine, set()).update(
            package_of(other) for other in imported if package_of(other) != mine
        )
    return packages


def test_package_graph_folds_modules_into_their_packages():
    graph = {
        "generator.values.published": {"generator.ordinance.classify", "generator.values.units"},
        "generator.ordinance.classify": {"generator.values.units"},
        "generator.build": {"generator.derive"},
        "generator.derive": set(),
        "generator.values.units": set(),
    }
    packages = package_graph(graph)
    assert packages["generator.values"] == {"generator.ordinance"}
    assert packages["generator.ordinance"] == {"generator.values"}
    assert packages["generator.build"] == {"generator.derive"}
    # Two modules that import each other's packages make a circle of packages.
    assert cycles(packages) == [["generator.ordinance", "generator.values"]]


def test_generator_has_no_package_circle():
    """The packages stand in layers: none imports a package that imports it back.

    A circle of packages, even of modules that do not import each other, means the
    stages are not where the layout says: one piece of one package belongs in the other.
    """
    assert cycles(package_graph(import_graph())) == []


INCREMENTAL = "generator.incremental"
INCREMENTAL_USERS = {"generator.build", "generator.cli"}
"""What may import the incremental state: the driver and the CLI (which sets the allocator)."""


def test_only_the_driver_and_the_cli_import_the_incremental_package():
    users = {
        module
        for module, imported in import_graph().items()
        if package_of(module) != INCREMENTAL and any(package_of(m) == INCREMENTAL for m in imported)
    }
    assert users <= INCREMENTAL_USERS, sorted(users - INCREMENTAL_USERS)
    assert users, "the driver no longer uses the incremental package: the test has gone stale"
