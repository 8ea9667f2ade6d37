#!/usr/bin/env bash
# A fleet on one machine: redis-server (append-only file on), N `tracelab serve --store redis://…`
# replicas on 127.0.0.1:8801… (each started again when it dies), and haproxy (deploy/haproxy.cfg)
# answering on one port. Runs in the
# foreground until Ctrl-C / SIGTERM, then stops haproxy, drains the replicas (SIGTERM: running
# traces finish) and stops Redis (which writes its data to disk). docs/fleet.md "The load balancer" has the details.
#
#   scripts/fleet.sh [N]                      N replicas (default 3)
#   FLEET_PORT=8787      the API: http://127.0.0.1:$FLEET_PORT/api/v1
#   FLEET_BASE_PORT=8800 replica i listens on FLEET_BASE_PORT + i
#   FLEET_REDIS_PORT=6380  FLEET_DIR=.fleet   Redis port; folder for Redis data and logs
#   TRACELAB_BIN=bin/tracelab.js   the CLI the replicas run
#   Any TRACELAB_* variable (TRACELAB_CREDITS, TRACELAB_THREADS, …) is passed to the replicas;
#   the account is seeded from it once, when Redis holds none yet.
# Needs redis-server and haproxy (Debian: apt-get install redis-server haproxy) and the CLI bundle
# (npm run build:cli).
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-3}"
port="${FLEET_PORT:-8787}"
base="${FLEET_BASE_PORT:-8800}"
redis_port="${FLEET_REDIS_PORT:-6380}"
dir="$(mkdir -p "${FLEET_DIR:-.fleet}" && cd "${FLEET_DIR:-.fleet}" && pwd)"
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "fleet: N must be a positive integer; received '$n'" >&2; exit 2; }
command -v redis-server >/dev/null || { echo "fleet: redis-server is missing (apt-get install redis-server)" >&2; exit 1; }
command -v haproxy >/dev/null || { echo "fleet: haproxy is missing (apt-get install haproxy)" >&2; exit 1; }
bin="${TRACELAB_BIN:-bin/tracelab.js}"
[ "$bin" != bin/tracelab.js ] || [ -f dist-cli/tracelab.mjs ] || npm run build:cli

pids=()
stop() {
  trap - INT TERM EXIT
  echo "fleet: stopping"
  # haproxy first (no new requests), then the replicas drain, then Redis saves and exits.
  [ -n "${haproxy_pid:-}" ] && kill "$haproxy_pid" 2>/dev/null || true
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  [ -n "${redis_pid:-}" ] && kill -TERM "$redis_pid" 2>/dev/null && wait "$redis_pid" 2>/dev/null || true
}
# Ctrl-C / SIGTERM is the normal way to stop the fleet: exit 0 after stopping it.
trap 'stop; exit 0' INT TERM
trap stop EXIT

redis-server --bind 127.0.0.1 --port "$redis_port" --dir "$dir" --appendonly yes --save '' \
  --daemonize no --logfile "$dir/redis.log" &
redis_pid=$!
for _ in $(seq 50); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done

cfg="$dir/haproxy.cfg"
sed '/^    server r[0-9]/d' deploy/haproxy.cfg > "$cfg"
# Each replica runs under a supervisor that starts it again when it dies (a crash, the OOM killer,
# a SIGKILL): haproxy's health checks take it out of the pool meanwhile and back in once it answers.
# SIGTERM to the supervisor is passed on to its replica, which drains and exits; then so does the
# supervisor.
supervise() {
  local i=$1 p=$2 child code
  trap 'kill -TERM "$child" 2>/dev/null; wait "$child" 2>/dev/null; exit 0' TERM
  while :; do
    TRACELAB_TRUST_REQUEST_ID=1 node "$bin" serve --port "$p" --store "redis://127.0.0.1:$redis_port/0" 2> >(sed -u "s/^/[r$i] /" >&2) &
    child=$!
    echo "fleet: replica r$i pid $child on :$p" >&2
    code=0
    wait "$child" || code=$?
    echo "fleet: replica r$i exited with status $code; starting it again in 1 s" >&2
    sleep 1
  done
}
for i in $(seq "$n"); do
  p=$((base + i))
  supervise "$i" "$p" &
  pids+=($!)
  echo "    server r$i 127.0.0.1:$p" >> "$cfg"
done
for i in $(seq "$n"); do
  p=$((base + i))
  for _ in $(seq 100); do
    node -e "fetch('http://127.0.0.1:$p/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" && break
    sleep 0.1
  done
done

TRACELAB_FLEET_BIND="127.0.0.1:$port" TRACELAB_DEPLOY_DIR="$PWD/deploy" haproxy -db -f "$cfg" &
haproxy_pid=$!
echo "fleet: $n replicas + Redis :$redis_port behind haproxy: http://127.0.0.1:$port/api/v1 (Ctrl-C stops)"
wait "$haproxy_pid"
