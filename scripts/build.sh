#!/usr/bin/env bash
# Builds the package: compiles src/ to dist/ (JavaScript and declarations, tsconfig.build.json), then bundles the
# workflow code ahead of time (dist/workflow-bundle*.js), so a worker started from dist/ runs no compiler at all.
# With --if-stale, does nothing when dist/ is newer than every input (a find over src/, well under a second).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

stamp="dist/.build-stamp"
if [ "${1:-}" = "--if-stale" ] && [ -f "$stamp" ] \
    && [ -z "$(find src tsconfig.json tsconfig.build.json package.json package-lock.json -newer "$stamp" -print -quit)" ]; then
  exit 0
fi
printf '[build] compiling src/ to dist/ and bundling the workflows\n' >&2
rm -rf dist
npx tsc -p tsconfig.build.json
node dist/server/build-workflow-bundles.js >/dev/null
chmod +x dist/cli/main.js
touch "$stamp"
