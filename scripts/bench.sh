#!/usr/bin/env bash
# `npm run bench [name]`: runs one benchmark (bench/run.ts). The archive and recall benchmarks get a throwaway PostgreSQL with
# durable settings (scripts/with-postgres.sh), unless DATABASE_URL names one.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if { [ "${1:-}" = archive ] || [ "${1:-}" = recall ]; } && [ -z "${DATABASE_URL:-}" ]; then
  PG_TEST_DURABLE=1 exec bash scripts/with-postgres.sh npx tsx bench/run.ts "$@"
fi
exec npx tsx bench/run.ts "$@"
