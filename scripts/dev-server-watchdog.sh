#!/usr/bin/env bash
# Runs the Temporal dev server as a child and stops it when the process that asked for it is gone, even when that
# process was killed with SIGKILL and could not clean up: no orphaned `temporal` is ever left behind.
# usage: dev-server-watchdog.sh OWNER_PID TEMPORAL_BINARY ARGS...
owner="$1"; shift
"$@" &
server=$!
stop() { kill -TERM "$server" 2>/dev/null; wait "$server" 2>/dev/null; exit 0; }
trap stop TERM INT HUP
while kill -0 "$owner" 2>/dev/null && kill -0 "$server" 2>/dev/null; do sleep 0.5; done
stop
