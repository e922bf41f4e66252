"""Compare a build of the tiny golden input with the committed expected tree, file by file.

After an intended change run `python -m tests.golden.regenerate` and review the diff. When
the trees differ, the failure lists missing, extra and changed files and shows a unified
diff of the first few changed text files (JSON pretty-printed, HTML one tag per line).
"""

from __future__ import annotations

import json
import re

import pytest

from tests.golden.compare import HINT, describe_differences
from tests.golden.regenerate import EXPECTED, SKIPPED
from tests.helpers import tree_bytes


def test_build_matches_golden_tree(golden_site):
    differences = describe_differences(golden_site, EXPECTED, skip=SKIPPED)
    if differences:
        pytest.fail(differences, pytrace=False)


def test_differences_are_shown_as_a_readable_diff(tmp_path):
    expected, built = tmp_path / "expected", tmp_path / "built"
    for root in (expected, built):
        (root / "v1").mkdir(parents=True)
        (root / "same.txt").write_text("unchanged\n")
    (expected / "gone.txt").write_text("x")
    (built / "new.txt").write_text("x")
    (expected / "v1" / "doc.json").write_text('{"a":1,"b":[1,2],"c":"x"}\n')
    (built / "v1" / "doc.json").write_text('{"a":1,"b":[1,3],"c":"x"}\n')
    (expected / "page.html").write_text("<main><h1>Alt</h1><p>gleich</p></main>")
    (built / "page.html").write_text("<main><h1>Neu</h1><p>gleich</p></main>")
    (expected / "data.parquet").write_bytes(b"\xff\x00\x01")
    (built / "data.parquet").write_bytes(b"\xff\x00\x02\x03")
    report = describe_differences(built, expected)
    assert "1 missing file(s):\n  gone.txt" in report
    assert "1 extra file(s):\n  new.txt" in report
    assert "3 changed file(s):\n  data.parquet\n  page.html\n  v1/doc.json" in report
    assert "data.parquet: binary, 3 bytes expected, 4 bytes built" in report
    assert "--- expected/v1/doc.json\n+++ built/v1/doc.json" in report
    assert "\n-  2\n+  3\n" in report  # the one changed value, on its own line
    assert "\n-<h1>Alt</h1>\n+<h1>Neu</h1>\n" in report
    assert report.endswith(HINT)
    assert describe_differences(expected, expected) == ""


def test_api_doc_examples_are_real():
    from tests.golden.regenerate import API_DOC, example, example_blocks

    blocks = example_blocks(API_DOC.read_text(encoding="utf-8"))
    assert len(blocks) >= 7
    for ref, block in blocks:
        assert block is not None, f"example {ref} has no JSON block"
        assert json.loads(block.removeprefix("```json\n").removesuffix("```\n")) == example(ref)


def test_every_output_spells_license_one_way(golden_site):
    """One spelling of "license" (the US one of the JSON keys) in every file a build writes."""
    spelled = []
    for path in sorted(p for p in golden_site.rglob("*") if p.is_file()):
        if path.suffix == ".parquet":
            text = path.read_bytes().decode("utf-8", "replace")
        else:
            text = tree_bytes(path).decode("utf-8", "replace")
        if re.search("licen[cs]e", text, re.I) and re.search("licence", text, re.I):
            spelled.append(path.relative_to(golden_site).as_posix())
    assert spelled == []
