#!/usr/bin/env bash
# The whole test suite: sets up what is missing (npm packages, the Temporal CLI, PostgreSQL), starts a throwaway
# PostgreSQL cluster (scripts/test-postgres.sh; stopped and deleted on exit), then runs mocha. Tests start their own
# Temporal dev server (from .tools/) and their own OpenAI-compatible HTTP server on loopback.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
# shellcheck source=scripts/test-postgres.sh
source scripts/test-postgres.sh
trap pg_test_stop EXIT
trap 'exit 130' INT TERM
pg_test_start
if [ "$#" -eq 0 ]; then set -- "test/**/*.test.ts"; fi
npx mocha "$@"
