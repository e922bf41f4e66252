#!/usr/bin/env bash
# Create ./.venv and install the project into it (idempotent, quiet when up to date).
# Usage: scripts/setup.sh [extra]   e.g. scripts/setup.sh test
set -euo pipefail
cd "$(dirname "$0")/.."
extra="${1:-}"
python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
stamp=".venv/.installed-${extra:-base}"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    # --no-compile: Python compiles the modules it imports when it first imports them;
    # compiling every file of every package up front took a third of the install's time.
    if [ -n "$extra" ]; then
        .venv/bin/python -m pip install --quiet --no-compile -e ".[$extra]"
    else
        .venv/bin/python -m pip install --quiet --no-compile -e .
    fi
    touch "$stamp"
fi
# The catalogue tests validate against published SHACL shapes and vocabularies that come
# from registry releases, not from the repository (scripts/published_shapes.py).
if [ "$extra" = "test" ]; then
    .venv/bin/python scripts/published_shapes.py .venv/share/published-shapes
fi
