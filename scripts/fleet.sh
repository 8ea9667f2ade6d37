#!/usr/bin/env bash
# A fleet on one machine: redis-server (append-only file on), N `tracelab serve --store redis://…`
# replicas on 127.0.0.1:8801… and haproxy (deploy/haproxy.cfg) answering on one port. The script
# supervises all of it: Redis and every replica are started again when they die (back-off 1 s,
# doubling to 30 s while they keep dying young), and a start-up error that a restart cannot fix
# (a port taken, `serve` exit status 3) stops the fleet at once, saying why. "serving" is printed
# only once haproxy listens. Runs in the foreground until Ctrl-C / SIGTERM, then stops haproxy,
# drains the replicas (SIGTERM: running traces finish) and stops Redis (which writes its data to
# disk), all within one deadline. docs/fleet.md "The load balancer" and "Supervision" have the details.
#
#   scripts/fleet.sh [N]                      N replicas (default 3)
#   FLEET_PORT=8790      the API: http://127.0.0.1:$FLEET_PORT/api/v1 (not serve's 8787)
#   FLEET_BASE_PORT=8800 replica i listens on FLEET_BASE_PORT + i
#   FLEET_REDIS_PORT=6380  FLEET_DIR=.fleet   Redis port; folder for Redis data and logs
#                        (relative to the folder the script is started from)
#   TRACELAB_BIN=bin/tracelab.js   the CLI the replicas run
#   Any TRACELAB_* variable (TRACELAB_CREDITS, TRACELAB_THREADS, …) is passed to the replicas;
#   the account is seeded from it once, when Redis holds none yet.
# Exit status: 0 after Ctrl-C / SIGTERM, 1 when the fleet could not start or had to stop, 2 for a
# bad N. Needs redis-server and haproxy (Debian: apt-get install redis-server haproxy) and the CLI
# bundle (npm run build:cli; the npm package ships it).
set -euo pipefail
n="${1:-3}"
port="${FLEET_PORT:-8790}"
base="${FLEET_BASE_PORT:-8800}"
redis_port="${FLEET_REDIS_PORT:-6380}"
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "fleet: N must be a positive integer; received '$n'" >&2; exit 2; }
# FLEET_DIR is the caller's (a path relative to where the script is started), never the package's.
dir="$(mkdir -p "${FLEET_DIR:-.fleet}" && cd "${FLEET_DIR:-.fleet}" && pwd)"
cd "$(dirname "$0")/.."
command -v redis-server >/dev/null || { echo "fleet: redis-server is missing (apt-get install redis-server)" >&2; exit 1; }
command -v haproxy >/dev/null || { echo "fleet: haproxy is missing (apt-get install haproxy)" >&2; exit 1; }
bin="${TRACELAB_BIN:-bin/tracelab.js}"
[ "$bin" != bin/tracelab.js ] || [ -f dist-cli/tracelab.mjs ] || npm run build:cli

# Exit status of `tracelab serve` for a start-up error a restart does not fix (src/cli/main.ts).
EXIT_CANNOT_START=3
# Back-off of restarts: first wait, longest wait, and how long a process must have run for its
# next death to start again from the first wait.
BACKOFF_FIRST_S=1
BACKOFF_MAX_S=30
BACKOFF_RESET_AFTER_S=60
fatal_file="$dir/fatal"
rm -f "$fatal_file"

# A port someone else listens on: say which and stop before anything starts.
port_free() {
  node -e "const s=require('net').createServer();s.once('error',()=>process.exit(1));s.listen($1,'127.0.0.1',()=>s.close(()=>process.exit(0)))"
}
check_port() {
  port_free "$1" || { echo "fleet: cannot start: port $1 ($2) is already in use on 127.0.0.1; stop what listens there or set $3" >&2; exit 1; }
}
check_port "$port" "the API" FLEET_PORT
check_port "$redis_port" "Redis" FLEET_REDIS_PORT
for i in $(seq "$n"); do check_port "$((base + i))" "replica r$i" FLEET_BASE_PORT; done

pids=()
# Stopping has one deadline, whatever hangs: haproxy and the replicas get serve's drain
# (TRACELAB_SHUTDOWN_GRACE_S, running traces finish) plus a margin, Redis the last REDIS_STOP_S;
# whatever is still running then is SIGKILLed, with its children.
shutdown_grace_s="${TRACELAB_SHUTDOWN_GRACE_S:-30}"
[[ "$shutdown_grace_s" =~ ^[0-9]+$ ]] || shutdown_grace_s=30
STOP_MARGIN_S=5
REDIS_STOP_S=5
stop() {
  # Ignored, not reset: a second Ctrl-C, or a supervisor's SIGTERM arriving after the main loop has
  # already read its fatal file, must not kill this shell halfway and leave the rest running.
  trap '' INT TERM
  trap - EXIT
  echo "fleet: stopping"
  local stop_by=$((SECONDS + shutdown_grace_s + STOP_MARGIN_S + REDIS_STOP_S))
  # haproxy first (no new requests), then the replicas drain, then Redis saves and exits.
  local procs=(${haproxy_pid:-} "${pids[@]}")
  [ "${#procs[@]}" -gt 0 ] && { kill -TERM "${procs[@]}" 2>/dev/null || true; }
  gone_by $((stop_by - REDIS_STOP_S)) "${procs[@]}"
  if [ -n "${redis_supervisor:-}" ]; then
    kill -TERM "$redis_supervisor" 2>/dev/null || true
    gone_by "$stop_by" "$redis_supervisor"
  fi
}
# Returns once every process given has exited, or at second $1 of $SECONDS, when those still
# running are SIGKILLed with their children (a supervisor's replica or Redis, its sleep).
# Polled with kill -0, never `wait PID`: bash (5.2) can lose the exit of a child that ends while a
# signal interrupts a `wait` (the supervisor that sends SIGTERM to this shell and exits), and a
# later `wait` for that child then blocks for good — the stop hung there in CI.
gone_by() {
  local by=$1 pid alive
  shift
  while :; do
    alive=()
    for pid in "$@"; do kill -0 "$pid" 2>/dev/null && alive+=("$pid"); done
    [ "${#alive[@]}" -eq 0 ] && return 0
    [ "$SECONDS" -ge "$by" ] && break
    sleep 0.1
  done
  for pid in "${alive[@]}"; do
    echo "fleet: pid $pid still running at the stop deadline; killing it" >&2
    pkill -KILL -P "$pid" 2>/dev/null || true
    kill -KILL "$pid" 2>/dev/null || true
  done
}
# Ctrl-C / SIGTERM is the normal way to stop the fleet: exit 0 after stopping it. A supervisor
# that meets an error it cannot fix writes it to $fatal_file and sends SIGTERM: exit 1 then.
on_term() {
  stop
  if [ -s "$fatal_file" ]; then
    echo "fleet: stopped because: $(cat "$fatal_file")" >&2
    exit 1
  fi
  exit 0
}
trap on_term INT TERM
trap stop EXIT
fail() {
  echo "$1" > "$fatal_file"
  kill -TERM $$
}

# After a death: says so, waits out the back-off (back to the first wait when the process had run
# long enough) and doubles it for the next death. Sets the calling supervisor's `delay` and
# `sleeper`; the sleep runs in the background so that a SIGTERM during it is handled at once.
back_off() {
  local what=$1 ran=$2
  [ "$ran" -ge "$BACKOFF_RESET_AFTER_S" ] && delay=$BACKOFF_FIRST_S
  echo "fleet: $what after $ran s; starting it again in $delay s" >&2
  sleep "$delay" &
  sleeper=$!
  wait "$sleeper" || true
  sleeper=
  delay=$((delay * 2 > BACKOFF_MAX_S ? BACKOFF_MAX_S : delay * 2))
}
# A supervisor's SIGTERM: passed on to its process (a replica drains), then the supervisor exits
# once that process has (polled: see gone_by; the stop's deadline bounds it).
stop_child() {
  kill -TERM "$child" $sleeper 2>/dev/null || true
  while kill -0 "$child" 2>/dev/null; do sleep 0.1; done
  exit 0
}

# Redis under a supervisor: started again when it dies (SIGKILL, OOM killer, crash), keeping its
# data (append-only file); the replicas reconnect by themselves. One that cannot start at all
# (it never answers PING) stops the fleet.
supervise_redis() {
  local child= code delay=$BACKOFF_FIRST_S started sleeper=
  trap stop_child TERM
  while :; do
    redis-server --bind 127.0.0.1 --port "$redis_port" --dir "$dir" --appendonly yes --save '' \
      --daemonize no --logfile "$dir/redis.log" &
    child=$!
    started=$SECONDS
    echo "fleet: Redis pid $child on :$redis_port" >&2
    local ready=0
    for _ in $(seq 100); do
      if redis-cli -p "$redis_port" ping >/dev/null 2>&1; then ready=1; break; fi
      kill -0 "$child" 2>/dev/null || break
      sleep 0.1
    done
    if [ "$ready" = 0 ]; then
      kill -TERM "$child" 2>/dev/null || true
      fail "Redis could not start on 127.0.0.1:$redis_port: $(tail -n 3 "$dir/redis.log" 2>/dev/null | tr '\n' ' ')(log: $dir/redis.log)"
      exit 0
    fi
    code=0
    wait "$child" || code=$?
    back_off "Redis exited with status $code" $((SECONDS - started))
  done
}
supervise_redis &
redis_supervisor=$!
for _ in $(seq 100); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done

cfg="$dir/haproxy.cfg"
sed '/^    server r[0-9]/d' deploy/haproxy.cfg > "$cfg"
# Each replica runs under a supervisor that starts it again when it dies (a crash, the OOM killer,
# a SIGKILL), after a back-off: haproxy's health checks take it out of the pool meanwhile and back
# in once it answers. A replica that exits with status 3 (it cannot start: its port is taken, …)
# would only fail again: the supervisor stops the fleet, saying why. SIGTERM to the supervisor is
# passed on to its replica, which drains and exits; then so does the supervisor.
supervise() {
  local i=$1 p=$2 child= code delay=$BACKOFF_FIRST_S started ran sleeper=
  trap stop_child TERM
  while :; do
    TRACELAB_TRUST_REQUEST_ID=1 node "$bin" serve --port "$p" --store "redis://127.0.0.1:$redis_port/0" 2> >(sed -u "s/^/[r$i] /" >&2) &
    child=$!
    started=$SECONDS
    echo "fleet: replica r$i pid $child on :$p" >&2
    code=0
    wait "$child" || code=$?
    ran=$((SECONDS - started))
    if [ "$code" = "$EXIT_CANNOT_START" ]; then
      echo "fleet: replica r$i cannot start on :$p (exit status $code, its error is above); not starting it again" >&2
      fail "replica r$i cannot start on 127.0.0.1:$p (see its [r$i] error line)"
      exit 0
    fi
    back_off "replica r$i exited with status $code" "$ran"
  done
}
for i in $(seq "$n"); do
  p=$((base + i))
  supervise "$i" "$p" &
  pids+=($!)
  echo "    server r$i 127.0.0.1:$p" >> "$cfg"
done
ready() {
  node -e "fetch('http://127.0.0.1:$1/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
}
for i in $(seq "$n"); do
  p=$((base + i))
  for _ in $(seq 300); do
    ready "$p" && break
    sleep 0.1
  done
done

TRACELAB_FLEET_BIND="127.0.0.1:$port" TRACELAB_DEPLOY_DIR="$PWD/deploy" haproxy -db -f "$cfg" 2> >(tee "$dir/haproxy.log" >&2) &
haproxy_pid=$!
# "serving" only once haproxy answers on its port; if it exits instead, say why and stop.
until node -e "fetch('http://127.0.0.1:$port/healthz').then(() => process.exit(0), () => process.exit(1))"; do
  if ! kill -0 "$haproxy_pid" 2>/dev/null; then
    code=0
    wait "$haproxy_pid" || code=$?
    haproxy_pid=
    echo "fleet: haproxy could not start on 127.0.0.1:$port (exit status $code): $(grep -m1 -i 'alert\|cannot\|error' "$dir/haproxy.log" || true)" >&2
    echo "haproxy could not listen on 127.0.0.1:$port" > "$fatal_file"
    stop
    echo "fleet: stopped because: $(cat "$fatal_file")" >&2
    exit 1
  fi
  sleep 0.1
done
echo "fleet: $n replicas + Redis :$redis_port behind haproxy: http://127.0.0.1:$port/api/v1 (Ctrl-C stops)"
# Waited on in short slices, the fatal file read between them: a supervisor's SIGTERM that bash
# defers (it came with the supervisor's own exit) still stops the fleet.
while kill -0 "$haproxy_pid" 2>/dev/null; do
  [ -s "$fatal_file" ] && on_term
  sleep 0.5 &
  wait $! || true
done
code=0
wait "$haproxy_pid" || code=$?
# Reached only when haproxy itself dies (a signal to the script runs on_term instead).
fail "haproxy exited with status $code"
