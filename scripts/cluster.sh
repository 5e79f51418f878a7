#!/usr/bin/env bash
# A self-hosted Temporal cluster on this machine, for the chaos suite and as the recipe docs/operations.md describes:
# the Temporal server (history, matching, frontend and worker services, each its own process) on PostgreSQL, a second
# PostgreSQL for the conversation archive, and worker "hosts": network namespaces, each joined to this host by its own
# links, so a host can be cut off from the frontend or from the archive while the others keep both.
#
#   scripts/cluster.sh start                   build or reuse the server binaries, start everything, print the env file
#   scripts/cluster.sh stop                    stop everything it started (by PID), remove the namespaces and addresses
#   scripts/cluster.sh status                  one line per part: up or down
#   scripts/cluster.sh kill SERVICE            SIGKILL history | matching | frontend | worker
#   scripts/cluster.sh start-service SERVICE   start it again and wait until it listens
#   scripts/cluster.sh restart-db temporal|archive   crash-stop a PostgreSQL (pg_ctl -m immediate) and start it again
#   scripts/cluster.sh cut N frontend|archive  host N loses that link silently (packets dropped, connections hang)
#   scripts/cluster.sh restore N frontend|archive
#
# Addresses (DC_CLUSTER_NET, default 198.18: the benchmarking network of RFC 2544, never routed): the frontend and the
# model server on 198.18.0.1, the archive's PostgreSQL on 198.18.0.2, Temporal's on 198.18.0.3, all on this host's
# loopback device. Host N is the namespace dc-hostN with three veth links: `fe` (to the frontend), `db` (to the
# archive) and `net` (everything else). A cut sets this side of the link down: the namespace's packets are dropped
# without an error, as on a real partition (the kernel has no packet filter actions here; see docs/operations.md).
#
# Environment: DC_CLUSTER_DIR (state, logs, PID files; default $TMPDIR/dc-cluster), DC_CLUSTER_HOSTS (worker hosts,
# default 3), DC_TEMPORAL_SERVER_CACHE (binaries and Go caches, default ~/.cache/durable-compaction/temporal-server,
# reused when present), DC_TEMPORAL_SERVER_VERSION (default v1.32.2). Needs root (namespaces, addresses), Go (only
# when the binaries are not cached yet), PostgreSQL's programs and the Temporal CLI in .tools (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$PWD

DIR=${DC_CLUSTER_DIR:-${TMPDIR:-/tmp}/dc-cluster}
HOSTS=${DC_CLUSTER_HOSTS:-3}
NET=${DC_CLUSTER_NET:-198.18}
CACHE=${DC_TEMPORAL_SERVER_CACHE:-$HOME/.cache/durable-compaction/temporal-server}
VERSION=${DC_TEMPORAL_SERVER_VERSION:-v1.32.2}
FRONTEND_IP=$NET.0.1
ARCHIVE_IP=$NET.0.2
TEMPORAL_DB_IP=$NET.0.3
# Second half of the network for the links: host N's links are $LINK_NET.N.{1,2} (fe), .{5,6} (db), .{9,10} (net).
LINK_NET=$NET
LINK_NET=${LINK_NET%.*}.$((${NET#*.} + 1))
SERVICES=(history matching frontend worker)
declare -A GRPC_PORT=([frontend]=7233 [history]=7234 [matching]=7235 [worker]=7239)

say() { echo "[cluster] $*" >&2; }
die() { say "error: $*"; exit 1; }

# shellcheck source=scripts/test-postgres.sh
source scripts/test-postgres.sh

build_server() {
  local bin=$CACHE/bin
  if [ -x "$bin/server" ] && [ -x "$bin/sql" ] && [ "$(cat "$CACHE/version" 2>/dev/null)" = "$VERSION" ]; then return; fi
  if [ -x "$bin/server" ] && [ -x "$bin/sql" ] && [ ! -f "$CACHE/version" ]; then echo "$VERSION" >"$CACHE/version"; return; fi
  command -v go >/dev/null || die "Go is needed to build the Temporal server $VERSION once (cached in $CACHE)"
  mkdir -p "$CACHE"
  say "building the Temporal server $VERSION into $CACHE (about 6 minutes on 2 cores; cached afterwards)"
  (
    # One build at a time, whoever starts it.
    flock 9
    if [ -x "$bin/server" ] && [ -x "$bin/sql" ]; then exit 0; fi
    GOBIN=$bin GOPATH=$CACHE/gopath GOMODCACHE=$CACHE/gopath/pkg/mod GOCACHE=$CACHE/gocache \
      GOTOOLCHAIN=${DC_GOTOOLCHAIN:-go1.27.3} CGO_ENABLED=0 GOFLAGS=-modcacherw \
      go install "go.temporal.io/server/cmd/server@$VERSION" "go.temporal.io/server/cmd/tools/sql@$VERSION" \
      >"$CACHE/build.log" 2>&1 || { tail -20 "$CACHE/build.log" >&2; exit 1; }
  ) 9>"$CACHE/build.lock" || die "the server build failed (log: $CACHE/build.log)"
  echo "$VERSION" >"$CACHE/version"
}

# Waits until something accepts TCP connections on $1:$2, at most $3 seconds.
wait_port() {
  local deadline=$((SECONDS + $3))
  until (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; do
    [ $SECONDS -lt "$deadline" ] || return 1
    sleep 0.2
  done
}

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# --- PostgreSQL (one cluster per role: temporal, archive) ---------------------------------------------------------

db_ip() { if [ "$1" = archive ]; then echo "$ARCHIVE_IP"; else echo "$TEMPORAL_DB_IP"; fi; }

db_start() {
  local role=$1 ip data=$DIR/pg-$1
  ip=$(db_ip "$role")
  pg_test_as_owner "$PG_TEST_BIN/pg_ctl" -D "$data/data" -l "$data/server.log" -w -t 60 \
    -o "-p 5432 -k $data -c listen_addresses=$ip -c max_connections=300 -c fsync=off -c full_page_writes=off" \
    start >/dev/null || { tail -20 "$data/server.log" >&2; die "PostgreSQL ($role) did not start"; }
}

db_init() {
  local role=$1 data=$DIR/pg-$1
  mkdir -p "$data"
  PG_TEST_USER=postgres
  id -u postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
  chown postgres "$data"
  chmod 700 "$data"
  cp "$DIR/password" "$data/pwfile"
  chown postgres "$data/pwfile"
  pg_test_as_owner "$PG_TEST_BIN/initdb" -D "$data/data" -U postgres --pwfile="$data/pwfile" -E UTF8 --no-locale \
    --auth-local=trust --auth-host=scram-sha-256 --no-sync >"$data/initdb.log" 2>&1 \
    || { cat "$data/initdb.log" >&2; die "initdb ($role) failed"; }
  rm -f "$data/pwfile"
  # Connections come from this host's cluster addresses and from the worker hosts' links.
  echo "host all all $NET.0.0/15 scram-sha-256" >>"$data/data/pg_hba.conf"
  db_start "$role"
}

# Crash-stops a PostgreSQL (as a killed server: no checkpoint, WAL replay on start) and starts it again.
db_restart() {
  local data=$DIR/pg-$1
  [ -d "$data/data" ] || die "no PostgreSQL '$1' (start the cluster first)"
  pg_test_as_owner "$PG_TEST_BIN/pg_ctl" -D "$data/data" -m immediate -w stop >/dev/null 2>&1 || true
  sleep "${2:-0}"
  db_start "$1"
}

db_stop() {
  local data=$DIR/pg-$1
  [ -f "$data/data/postmaster.pid" ] || return 0
  pg_test_as_owner "$PG_TEST_BIN/pg_ctl" -D "$data/data" -m fast -w stop >/dev/null 2>&1 || true
}

# --- the Temporal services ------------------------------------------------------------------------------------------

write_server_config() {
  local password
  password=$(cat "$DIR/password")
  local store
  store() {
    cat <<EOF
      sql:
        pluginName: postgres12
        databaseName: $1
        connectAddr: "$TEMPORAL_DB_IP:5432"
        connectProtocol: tcp
        user: postgres
        password: "$password"
        maxConns: 20
        maxIdleConns: 20
        maxConnLifetime: 1h
EOF
  }
  local services="" s
  for s in "${SERVICES[@]}"; do
    services+="  $s:
    rpc:
      grpcPort: ${GRPC_PORT[$s]}
      membershipPort: $((${GRPC_PORT[$s]} - 300))
      bindOnIP: $FRONTEND_IP
"
  done
  cat >"$DIR/temporal-server.yaml" <<EOF
# Written by scripts/cluster.sh: each service runs as its own process with this file.
log:
  stdout: true
  level: warn
persistence:
  defaultStore: default
  visibilityStore: visibility
  numHistoryShards: 4
  datastores:
    default:
$(store temporal)
    visibility:
$(store temporal_visibility)
global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: "$FRONTEND_IP"
services:
$services
clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: active
  currentClusterName: active
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: frontend
      rpcAddress: "$FRONTEND_IP:7233"
dcRedirectionPolicy:
  policy: noop
dynamicConfigClient:
  filepath: "$DIR/dynamic-config.yaml"
  pollInterval: 10s
EOF
  cat >"$DIR/dynamic-config.yaml" <<'EOF'
# Updates and update-with-start (the client's prepare), found search attributes at once, and no phoning home.
frontend.enableUpdateWorkflowExecution:
  - value: true
frontend.enableUpdateWorkflowExecutionAsyncAccepted:
  - value: true
frontend.enableExecuteMultiOperation:
  - value: true
frontend.enableServerVersionCheck:
  - value: false
system.forceSearchAttributesCacheRefreshOnRead:
  - value: true
EOF
}

service_start() {
  local s=$1
  alive "$DIR/$s.pid" && return 0
  setsid "$CACHE/bin/server" --config-file "$DIR/temporal-server.yaml" --allow-no-auth start --service "$s" \
    >>"$DIR/$s.log" 2>&1 </dev/null &
  echo $! >"$DIR/$s.pid"
  wait_port "$FRONTEND_IP" "${GRPC_PORT[$s]}" 60 || { tail -20 "$DIR/$s.log" >&2; die "the $s service did not listen"; }
}

service_kill() {
  local s=$1
  alive "$DIR/$s.pid" || return 0
  local pid
  pid=$(cat "$DIR/$s.pid")
  kill -KILL "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
}

sql_tool() {
  "$CACHE/bin/sql" --plugin postgres12 --ep "$TEMPORAL_DB_IP" -p 5432 -u postgres -pw "$(cat "$DIR/password")" "$@"
}

apply_schemas() {
  local db schema
  for db in temporal temporal_visibility; do
    schema=postgresql/v12/temporal
    [ "$db" = temporal_visibility ] && schema=postgresql/v12/visibility
    sql_tool --db "$db" create-database >>"$DIR/schema.log" 2>&1
    sql_tool --db "$db" setup-schema -v 0.0 >>"$DIR/schema.log" 2>&1
    sql_tool --db "$db" update-schema --schema-name "$schema" >>"$DIR/schema.log" 2>&1 \
      || { tail -20 "$DIR/schema.log" >&2; die "the schema of $db could not be applied"; }
  done
}

temporal_cli() { "$repo/.tools/temporal" --address "$FRONTEND_IP:7233" "$@"; }

create_namespace() {
  local deadline=$((SECONDS + 60))
  until temporal_cli operator namespace create --namespace default --retention 72h >/dev/null 2>&1 \
    || temporal_cli operator namespace describe --namespace default >/dev/null 2>&1; do
    [ $SECONDS -lt "$deadline" ] || die "could not create the namespace 'default'"
    sleep 1
  done
  # The search attributes every conversation sets (src/visibility/search-attributes.ts).
  local name type
  while read -r name type; do
    temporal_cli operator search-attribute create --namespace default --name "$name" --type "$type" >/dev/null 2>&1 \
      || temporal_cli operator search-attribute list --namespace default 2>/dev/null | grep -q "$name" \
      || die "could not register the search attribute $name"
  done < <(node --require tsx/cjs -e "
    const { conversationSearchAttributes: a } = require('./src/visibility/search-attributes');
    for (const x of a) console.log(x.key.name, x.cliType);")
}

# --- worker hosts ---------------------------------------------------------------------------------------------------

# link N KIND: prints "hostSideName hostIp nsIp" of host N's link KIND (fe, db, net).
link() {
  local offset
  case $2 in fe) offset=1 ;; db) offset=5 ;; net) offset=9 ;; *) die "unknown link '$2'" ;; esac
  echo "dc$1$2 $LINK_NET.$1.$offset $LINK_NET.$1.$((offset + 1))"
}

host_up() {
  local n=$1 ns=dc-host$1 kind name host_ip ns_ip i=0
  ip netns add "$ns"
  ip netns exec "$ns" ip link set lo up
  for kind in fe db net; do
    read -r name host_ip ns_ip < <(link "$n" "$kind")
    ip link add "$name" type veth peer name "eth$i" netns "$ns"
    ip addr add "$host_ip/30" dev "$name"
    ip link set "$name" up
    ip netns exec "$ns" ip addr add "$ns_ip/30" dev "eth$i"
    ip netns exec "$ns" ip link set "eth$i" up
    # A fixed neighbour entry: while the link is cut, packets are dropped silently instead of failing address
    # resolution with "host unreachable" after 3 s.
    ip netns exec "$ns" ip neigh replace "$host_ip" lladdr "$(cat "/sys/class/net/$name/address")" dev "eth$i" nud permanent
    case $kind in
      fe) ip netns exec "$ns" ip route add "$FRONTEND_IP/32" via "$host_ip" dev "eth$i" ;;
      db) ip netns exec "$ns" ip route add "$ARCHIVE_IP/32" via "$host_ip" dev "eth$i" ;;
      net) ip netns exec "$ns" ip route add default via "$host_ip" dev "eth$i" ;;
    esac
    i=$((i + 1))
  done
}

host_down() {
  local n=$1 kind name
  ip netns del "dc-host$n" 2>/dev/null || true
  for kind in fe db net; do
    read -r name _ < <(link "$n" "$kind")
    ip link del "$name" 2>/dev/null || true
  done
}

set_link() {
  local n=$1 what=$2 state=$3 kind name
  case $what in frontend) kind=fe ;; archive) kind=db ;; *) die "cut/restore what? frontend or archive (got '$what')" ;; esac
  [ "$n" -ge 1 ] && [ "$n" -le "$HOSTS" ] || die "no host $n (hosts 1..$HOSTS)"
  read -r name _ < <(link "$n" "$kind")
  ip link set "$name" "$state"
}

# --- commands -------------------------------------------------------------------------------------------------------

start() {
  [ "$(id -u)" = 0 ] || die "run as root (network namespaces, addresses on the loopback device)"
  [ -x "$repo/.tools/temporal" ] || die "the Temporal CLI is missing in .tools: run 'bash scripts/setup.sh'"
  if [ -f "$DIR/env" ]; then die "a cluster is already running from $DIR (scripts/cluster.sh stop first)"; fi
  build_server
  rm -rf "$DIR"
  mkdir -p "$DIR"
  chmod 755 "$DIR"
  node -e "console.log(require('crypto').randomBytes(12).toString('hex'))" >"$DIR/password"
  chmod 644 "$DIR/password"
  local ipaddr
  for ipaddr in "$FRONTEND_IP" "$ARCHIVE_IP" "$TEMPORAL_DB_IP"; do
    ip addr replace "$ipaddr/32" dev lo
  done
  PG_TEST_BIN=$(pg_test_bin)
  local t0=$SECONDS
  db_init temporal
  db_init archive
  pg_test_as_owner "$PG_TEST_BIN/createdb" -h "$DIR/pg-archive" -p 5432 -U postgres compaction
  apply_schemas
  write_server_config
  # One after another: started together on a fresh database they race to initialise the cluster metadata.
  local s
  for s in "${SERVICES[@]}"; do service_start "$s"; done
  create_namespace
  local n
  for n in $(seq 1 "$HOSTS"); do host_down "$n"; host_up "$n"; done
  local password
  password=$(cat "$DIR/password")
  cat >"$DIR/env" <<EOF
DC_CLUSTER_DIR=$DIR
DC_CLUSTER_HOSTS=$HOSTS
TEMPORAL_ADDRESS=$FRONTEND_IP:7233
TEMPORAL_NAMESPACE=default
ARCHIVE_DRIVER=postgres
DATABASE_URL=postgres://postgres:$password@$ARCHIVE_IP:5432/compaction
DC_CLUSTER_MODEL_IP=$FRONTEND_IP
EOF
  say "up in $((SECONDS - t0)) s: frontend $FRONTEND_IP:7233, archive $ARCHIVE_IP:5432, hosts dc-host1..$HOSTS; env in $DIR/env"
  echo "$DIR/env"
}

stop() {
  local s n
  for s in worker frontend matching history; do service_kill "$s"; done
  if [ -d "$DIR" ]; then
    PG_TEST_BIN=$(pg_test_bin)
    PG_TEST_USER=postgres
    db_stop temporal
    db_stop archive
  fi
  for n in $(seq 1 "$HOSTS"); do host_down "$n"; done
  local ipaddr
  for ipaddr in "$FRONTEND_IP" "$ARCHIVE_IP" "$TEMPORAL_DB_IP"; do ip addr del "$ipaddr/32" dev lo 2>/dev/null || true; done
  rm -f "$DIR/env"
  say "stopped (logs kept in $DIR)"
}

status() {
  local s
  for s in "${SERVICES[@]}"; do
    if alive "$DIR/$s.pid"; then echo "$s up (pid $(cat "$DIR/$s.pid"))"; else echo "$s down"; fi
  done
  for s in temporal archive; do
    if [ -f "$DIR/pg-$s/data/postmaster.pid" ] && kill -0 "$(head -1 "$DIR/pg-$s/data/postmaster.pid")" 2>/dev/null; then
      echo "postgres-$s up"
    else echo "postgres-$s down"; fi
  done
  local n
  for n in $(seq 1 "$HOSTS"); do
    if ip netns list | grep -qw "dc-host$n"; then
      echo "host $n: frontend $(cat "/sys/class/net/dc${n}fe/operstate"), archive $(cat "/sys/class/net/dc${n}db/operstate")"
    else echo "host $n down"; fi
  done
}

service_name() {
  case ${1:-} in history | matching | frontend | worker) ;; *) die "service: history, matching, frontend or worker (got '${1:-}')" ;; esac
}

cmd=${1:-}
shift || true
case $cmd in
  start) start ;;
  stop) stop ;;
  status) status ;;
  build) build_server ;;
  kill) service_name "${1:-}"; service_kill "$1" ;;
  start-service) service_name "${1:-}"; service_start "$1" ;;
  restart-db)
    case ${1:-} in temporal | archive) ;; *) die "restart-db temporal|archive" ;; esac
    PG_TEST_BIN=$(pg_test_bin)
    PG_TEST_USER=postgres
    db_restart "$1" "${2:-0}"
    ;;
  cut) set_link "${1:-0}" "${2:-}" down ;;
  restore) set_link "${1:-0}" "${2:-}" up ;;
  *) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
