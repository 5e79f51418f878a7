#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster (scripts/test-postgres.sh): DC_TEST_DATABASE_URL and
# DC_TEST_PG_ADMIN_URL are exported to it, and the cluster is stopped and deleted when it ends, however it ends.
# PG_TEST_DURABLE=1 keeps PostgreSQL's durable defaults (fsync, synchronous_commit) for benchmarks.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/test-postgres.sh
source scripts/test-postgres.sh
trap pg_test_stop EXIT
trap 'exit 130' INT TERM
pg_test_start
"$@"
