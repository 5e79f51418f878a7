#!/usr/bin/env bash
# The chaos suite (`npm run test:cluster`): starts the cluster (scripts/cluster.sh; the Temporal server is built once
# and cached), runs test/cluster/*.cluster.ts against it, and stops everything it started, however the run ends.
# CHAOS_FAULTS (default 64) and CHAOS_SEED tune the run; CHAOS_RESULT=FILE writes its figures as JSON.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
export DC_CLUSTER_DIR=${DC_CLUSTER_DIR:-${TMPDIR:-/tmp}/dc-cluster-test}
bash scripts/cluster.sh stop >/dev/null 2>&1 || true
trap 'bash scripts/cluster.sh stop' EXIT
trap 'exit 130' INT TERM
bash scripts/cluster.sh start >/dev/null
if [ "$#" -eq 0 ]; then set -- "test/cluster/*.cluster.ts"; fi
npx mocha "$@"
