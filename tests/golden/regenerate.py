"""Rebuild the golden output tree after an intended change: `python -m tests.golden.regenerate`.

Review the diff of tests/golden/expected like code before committing it.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from generator.build import build
from generator.config import Config
from generator.write import MANIFEST

HERE = Path(__file__).parent
INPUT = HERE / "input"
EXPECTED = HERE / "expected"
AS_OF = dt.date(2026, 11, 23)


def build_golden(out: Path) -> Path:
    """Build the golden input into `out`, without the manifest (it hashes the code)."""
    build(INPUT, out, AS_OF, Config(), force=True)
    (out / MANIFEST).unlink()
    return out


def main() -> None:
    shutil.rmtree(EXPECTED, ignore_errors=True)
    build_golden(EXPECTED)
    count = sum(1 for p in EXPECTED.rglob("*") if p.is_file())
    print(f"wrote {count} files to {EXPECTED}")


if __name__ == "__main__":
    main()
