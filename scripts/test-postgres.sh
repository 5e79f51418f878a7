#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests, sourced by scripts/test.sh: `pg_test_start` runs initdb + pg_ctl in a
# temporary folder on a free loopback port (as an unprivileged user when run as root: PostgreSQL refuses to run as
# root), creates the database `dc_test` and exports its URL as DC_TEST_DATABASE_URL (and the maintenance database's as
# DC_TEST_PG_ADMIN_URL, for tests that need a fresh database). `pg_test_stop` stops it and deletes the folder.
# Password authentication over TCP, so tests can check wrong credentials; fsync off, because the cluster is discarded
# (PG_TEST_DURABLE=1 keeps PostgreSQL's durable defaults, for benchmarks).

pg_test_bin() {
  # The real folder (Debian links only some programs into /usr/local/bin or /usr/bin), which also has createdb.
  if command -v initdb >/dev/null 2>&1; then dirname "$(readlink -f "$(command -v initdb)")"; return; fi
  local newest
  newest=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [ -n "$newest" ] || { echo "[test-postgres] error: initdb not found; run 'bash scripts/setup.sh'" >&2; return 1; }
  echo "$newest"
}

# Runs a PostgreSQL program as the cluster's owner.
pg_test_as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u "$PG_TEST_USER" -- "$@"; else "$@"; fi
}

pg_test_start() {
  local bin port password
  bin=$(pg_test_bin) || return 1
  PG_TEST_DIR=$(mktemp -d "${TMPDIR:-/tmp}/dc-pg.XXXXXX")
  if [ "$(id -u)" = 0 ]; then
    # Debian's package creates `postgres`; elsewhere a system user is created once.
    PG_TEST_USER=postgres
    if ! id -u "$PG_TEST_USER" >/dev/null 2>&1; then
      useradd --system --no-create-home --shell /usr/sbin/nologin "$PG_TEST_USER" \
        || { echo "[test-postgres] error: cannot create the system user $PG_TEST_USER" >&2; return 1; }
    fi
    chown "$PG_TEST_USER" "$PG_TEST_DIR"
  fi
  chmod 700 "$PG_TEST_DIR"
  port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
  password=$(node -e "console.log(require('crypto').randomBytes(12).toString('hex'))")
  printf '%s\n' "$password" >"$PG_TEST_DIR/pwfile"
  [ "$(id -u)" = 0 ] && chown "$PG_TEST_USER" "$PG_TEST_DIR/pwfile"
  pg_test_as_owner "$bin/initdb" -D "$PG_TEST_DIR/data" -U postgres --pwfile="$PG_TEST_DIR/pwfile" -E UTF8 \
    --no-locale --auth-local=trust --auth-host=scram-sha-256 --no-sync >"$PG_TEST_DIR/initdb.log" 2>&1 \
    || { cat "$PG_TEST_DIR/initdb.log" >&2; echo "[test-postgres] error: initdb failed" >&2; return 1; }
  rm -f "$PG_TEST_DIR/pwfile"
  local options="-p $port -k $PG_TEST_DIR -c listen_addresses=127.0.0.1 -c max_connections=200"
  if [ "${PG_TEST_DURABLE:-0}" != 1 ]; then options="$options -c fsync=off -c synchronous_commit=off -c full_page_writes=off"; fi
  pg_test_as_owner "$bin/pg_ctl" -D "$PG_TEST_DIR/data" -l "$PG_TEST_DIR/server.log" -w -t 60 -o "$options" start >/dev/null \
    || { cat "$PG_TEST_DIR/server.log" >&2; echo "[test-postgres] error: the server did not start" >&2; return 1; }
  PG_TEST_BIN=$bin
  pg_test_as_owner "$bin/createdb" -h "$PG_TEST_DIR" -p "$port" -U postgres dc_test \
    || { echo "[test-postgres] error: createdb failed" >&2; return 1; }
  export DC_TEST_DATABASE_URL="postgres://postgres:$password@127.0.0.1:$port/dc_test"
  export DC_TEST_PG_ADMIN_URL="postgres://postgres:$password@127.0.0.1:$port/postgres"
  echo "[test-postgres] PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port ($PG_TEST_DIR)" >&2
}

pg_test_stop() {
  [ -n "${PG_TEST_DIR:-}" ] || return 0
  if [ -n "${PG_TEST_BIN:-}" ] && [ -f "$PG_TEST_DIR/data/postmaster.pid" ]; then
    pg_test_as_owner "$PG_TEST_BIN/pg_ctl" -D "$PG_TEST_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$PG_TEST_DIR"
  PG_TEST_DIR=
}
