#!/usr/bin/env bash
# The main job: sets up what is missing, then runs the worker (with the embedded Temporal dev server unless
# temporal.address / TEMPORAL_ADDRESS names a cluster). Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
exec node --require tsx/cjs src/worker.ts "$@"
