#!/usr/bin/env bash
# squall-cluster.sh start|stop STATE_DIR [NODES] [PORT]: a Squall controller (bin/squall server) in
# STATE_DIR with one static partition of NODES (default 64) 8-GPU nodes, each a real agent JVM on
# this host started by the local provider, listening on 127.0.0.1:PORT (default 6901), with the
# squall.priority settings in SQUALL_CLUSTER_PRIORITY ("name: value" lines), if any, and the
# partition SQUALL_CLUSTER_PARTITION describes, if set (a squall.partitions entry as
# `bench small-jobs --write-cluster` writes it: the simulated nodes, NODES of them; else one
# placement group of 32-CPU nodes); `start` returns once every node is idle, `stop` stops the
# controller (its agents stop with it).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cmd="$1"
dir="$(mkdir -p "$2" && cd "$2" && pwd)"
nodes="${3:-64}"
port="${4:-6901}"
url="http://127.0.0.1:$port"

case "$cmd" in
start)
  last="$(printf '%02d' "$nodes")"
  if [ -n "${SQUALL_CLUSTER_PARTITION:-}" ]; then
    partition="$SQUALL_CLUSTER_PARTITION"
  else
    partition="gpu:
  default: true
  nodes: gpu[01-$last]
  gpus: 8
  gpu-type: h100
  cpus: 32
  memory-mb: 262144
  placement-groups: 1"
  fi
  cat > "$dir/squall.yml" <<CONF
micronaut:
  server:
    port: $port
squall:
  data-dir: $dir/data
  partitions:
$(printf '%s\n' "$partition" | sed 's/^/    /')
CONF
  # squall.priority settings, one "name: value" a line (run.sh passes the simulator's on).
  if [ -n "${SQUALL_CLUSTER_PRIORITY:-}" ]; then
    { echo "  priority:"; printf '%s' "$SQUALL_CLUSTER_PRIORITY" | sed 's/^/    /'; } >>"$dir/squall.yml"
  fi
  SQUALL_JAVA_OPTS="-Dmicronaut.config.files=$dir/squall.yml" "$root/bin/squall" server >"$dir/server.log" 2>&1 &
  echo $! >"$dir/server.pid"
  for _ in $(seq 300); do
    idle="$(curl -sf -H 'Authorization: Bearer alice-token' "$url/v1/nodes" 2>/dev/null \
      | python3 -c 'import json,sys; print(sum(1 for n in json.load(sys.stdin)["nodes"] if n["state"].upper() == "IDLE"))' 2>/dev/null || echo 0)"
    [ "$idle" = "$nodes" ] && break
    sleep 1
  done
  if [ "$idle" != "$nodes" ]; then
    echo "squall-cluster.sh: only $idle of $nodes nodes idle after 300 s: see $dir/server.log" >&2
    exit 1
  fi
  echo "squall: $nodes nodes idle at $url"
  ;;
stop)
  [ -f "$dir/server.pid" ] || exit 0
  pid="$(cat "$dir/server.pid")"
  # bin/squall execs java, so the pid is the controller's; it stops its local agents on the way out.
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$dir/server.pid"
  ;;
*)
  echo "usage: squall-cluster.sh start|stop STATE_DIR [NODES] [PORT]" >&2
  exit 2
  ;;
esac
