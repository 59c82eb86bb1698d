#!/usr/bin/env bash
# cluster.sh start|stop|status STATE_DIR [NODES]: the emulated Slurm cluster of slurm-conf.sh on this
# host (as root): munged (if not already running), slurmctld and one slurmd per node (`slurmd -N`),
# each in the foreground of its own background process, with its pid in STATE_DIR/pids/. `stop`
# kills exactly those pids (and munged only if this script started it).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cmd="$1"
dir="$(mkdir -p "$2" && cd "$2" && pwd)"
nodes="${3:-64}"
export SLURM_CONF="$dir/slurm.conf"
mkdir -p "$dir/pids"

case "$cmd" in
start)
  "$here/slurm-conf.sh" "$dir" "$nodes" >/dev/null
  if ! munge -n >/dev/null 2>&1; then
    mkdir -p /run/munge && chown munge:munge /run/munge
    runuser -u munge -- /usr/sbin/munged
    sleep 1
    cp /run/munge/munged.pid "$dir/pids/munged"
  fi
  slurmctld -D -f "$SLURM_CONF" >"$dir/log/slurmctld.out" 2>&1 &
  echo $! >"$dir/pids/slurmctld"
  for _ in $(seq 30); do scontrol ping >/dev/null 2>&1 && break; sleep 1; done
  if ! scontrol ping >/dev/null 2>&1; then
    echo "slurmctld did not start: see $dir/log/slurmctld.out" >&2
    tail -3 "$dir/log/slurmctld.out" >&2
    exit 1
  fi
  for i in $(seq 1 "$nodes"); do
    n="n$(printf '%02d' "$i")"
    slurmd -D -N "$n" -f "$SLURM_CONF" >"$dir/log/slurmd-$n.out" 2>&1 &
    echo $! >"$dir/pids/slurmd-$n"
  done
  # Wait until every node is idle (registered with 8 GPUs).
  for _ in $(seq 120); do
    idle="$(sinfo -h -t idle -o '%D' | awk '{s+=$1} END {print s+0}')"
    [ "$idle" = "$nodes" ] && break
    sleep 1
  done
  sinfo
  sinfo -R
  ;;
stop)
  # TERM, then KILL whatever is still up after 20 s (a slurmd that lost its controller may not stop).
  pids=()
  for f in "$dir"/pids/slurmd-* "$dir/pids/slurmctld" "$dir/pids/munged"; do
    [ -f "$f" ] || continue
    pids+=("$(cat "$f")")
    rm -f "$f"
  done
  [ "${#pids[@]}" -eq 0 ] && exit 0
  kill "${pids[@]}" 2>/dev/null || true
  for _ in $(seq 20); do
    alive=()
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive+=("$p"); done
    [ "${#alive[@]}" -eq 0 ] && exit 0
    sleep 1
  done
  kill -9 "${alive[@]}" 2>/dev/null || true
  ;;
status)
  for f in "$dir"/pids/*; do
    [ -f "$f" ] || continue
    printf '%s %s %s\n' "$(basename "$f")" "$(cat "$f")" "$(kill -0 "$(cat "$f")" 2>/dev/null && echo up || echo gone)"
  done
  ;;
*)
  echo "usage: cluster.sh start|stop|status STATE_DIR [NODES]" >&2
  exit 2
  ;;
esac
