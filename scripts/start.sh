#!/usr/bin/env bash
# The main job: sets up what is missing (and builds dist/ when stale), then runs `durable-compaction dev`: the worker
# with the embedded Temporal dev server unless temporal.address / TEMPORAL_ADDRESS names a cluster. Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
# The compiled CLI (setup built dist/): the worker loads the prebuilt workflow bundle, no TypeScript at run time.
exec node dist/cli/main.js dev "$@"
