"""Rebuild the golden output tree after an intended change: `python -m tests.golden.regenerate`.

Review the diff of tests/golden/expected like code before committing it.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path, PurePosixPath

from generator.api import series
from generator.build import build
from generator.config import Config
from generator.output.state import state_dir
from tests.helpers import AS_OF, GOLDEN_INPUT, tree_bytes

HERE = Path(__file__).parent
INPUT = GOLDEN_INPUT
EXPECTED = HERE / "expected"


SKIPPED = ("static/",)
"""Folders of a build the golden tree leaves out: a verbatim copy of the repository's static/
assets (the site tests check those)."""


def build_golden(out: Path) -> Path:
    """Build the golden input into `out`, leaving out what is not compared.

    Left out: the build's manifest beside the tree (it hashes the code) and static/, a
    verbatim copy of the repository's static/ assets (the site tests check those).
    """
    build(INPUT, out, AS_OF, Config(), force=True)
    shutil.rmtree(state_dir(out))
    for folder in SKIPPED:
        shutil.rmtree(out / folder)
    return out


API_DOC = HERE.parents[1] / "docs" / "api.md"
_EXAMPLE = re.compile(r"(<!-- example: (?P<ref>[^ ]+) -->\n)(```json\n.*?```\n)?", re.S)


def example(ref: str, root: Path = EXPECTED) -> object:
    """Return the JSON value an example marker refers to: `path[?parameter=CODE][#key/...]`.

    `?parameter=CODE` on a zone's series file is the gates' filtered answer.
    """
    path, _, pointer = ref.partition("#")
    path, _, query = path.partition("?")
    data = tree_bytes(root / path)
    if query:
        code = query.removeprefix("parameter=")
        zone_id = PurePosixPath(path).parent.name
        data = series.filter_series(data, code, {"zone_id": zone_id})
    value = json.loads(data)
    for part in filter(None, pointer.split("/")):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def example_blocks(text: str) -> list[tuple[str, str | None]]:
    """Return (reference, json block or None) for every example marker of a document."""
    return [(m["ref"], m.group(3)) for m in _EXAMPLE.finditer(text)]


def refresh_examples(doc: Path = API_DOC) -> None:
    """Rewrite the JSON block after every example marker from the golden tree."""

    def block(m: re.Match) -> str:
        pretty = json.dumps(example(m["ref"]), ensure_ascii=False, indent=2)
        return f"{m.group(1)}```json\n{pretty}\n```\n"

    doc.write_text(_EXAMPLE.sub(block, doc.read_text(encoding="utf-8")), encoding="utf-8")


def main() -> None:
    shutil.rmtree(EXPECTED, ignore_errors=True)
    build_golden(EXPECTED)
    count = sum(1 for p in EXPECTED.rglob("*") if p.is_file())
    refresh_examples()
    print(f"wrote {count} files to {EXPECTED} and refreshed the examples in {API_DOC}")


if __name__ == "__main__":
    main()
