"""Compare a build of the tiny golden input with the committed expected tree, file by file.

After an intended change run `python -m tests.golden.regenerate` and review the diff.
"""

from __future__ import annotations

from tests.golden.regenerate import EXPECTED, build_golden


def files(root):
    return {p.relative_to(root).as_posix(): p for p in root.rglob("*") if p.is_file()}


def test_build_matches_golden_tree(tmp_path):
    actual = files(build_golden(tmp_path / "build"))
    expected = files(EXPECTED)
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    changed = sorted(
        p for p in set(actual) & set(expected) if actual[p].read_bytes() != expected[p].read_bytes()
    )
    hint = "run `python -m tests.golden.regenerate` if the change is intended"
    assert not missing, f"missing files: {missing[:20]} ({hint})"
    assert not extra, f"unexpected files: {extra[:20]} ({hint})"
    assert not changed, f"changed files: {changed[:20]} ({hint})"


def test_api_doc_examples_are_real():
    import json

    from tests.golden.regenerate import API_DOC, example, example_blocks

    blocks = example_blocks(API_DOC.read_text(encoding="utf-8"))
    assert len(blocks) >= 7
    for ref, block in blocks:
        assert block is not None, f"example {ref} has no JSON block"
        assert json.loads(block.removeprefix("```json\n").removesuffix("```\n")) == example(ref)
