#!/usr/bin/env bash
# Set up, build the site from the bundled sample data and serve it on loopback.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/trinkwasser build
exec .venv/bin/trinkwasser serve --demo-key "$@"
