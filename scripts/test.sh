#!/usr/bin/env bash
# The whole test suite: sets up what is missing (npm packages, the Temporal CLI, PostgreSQL), starts a throwaway
# PostgreSQL cluster (scripts/with-postgres.sh; stopped and deleted on exit), then runs mocha. Tests start their own
# Temporal dev server (from .tools/) and their own OpenAI-compatible HTTP server on loopback. Without arguments it
# also runs the Python client's tests.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
if [ "$#" -eq 0 ]; then
  # Everything: the mocha suite, then the Python client's tests (pytest, scripts/test-python.sh).
  bash scripts/with-postgres.sh npx mocha "test/**/*.test.ts"
  exec bash scripts/test-python.sh
fi
exec bash scripts/with-postgres.sh npx mocha "$@"
