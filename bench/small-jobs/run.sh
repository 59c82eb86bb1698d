#!/usr/bin/env bash
# run.sh slurm|squall RUN_DIR [bench small-jobs options...]: the same trace in Squall's simulator
# and on a real scheduler in real time, as root on this host. Writes the trace with
# `bin/squall bench small-jobs OPTIONS --write-trace RUN_DIR/trace.csv` (the simulator's figures in
# RUN_DIR/simulated.txt, one line a job in RUN_DIR/simulated-jobs.csv, the simulated nodes as a
# controller partition in RUN_DIR/cluster.yml), starts a fresh 64-node cluster in RUN_DIR/TARGET
# (which must not exist): slurm, the emulated Slurm of cluster.sh; squall, a Squall controller with
# 64 real agents (squall-cluster.sh) on the simulated nodes, replays the trace on it (replay.py;
# figures in RUN_DIR/TARGET.txt, one line a job in RUN_DIR/TARGET-out/jobs.csv) and stops what it
# started.
# The replay takes the trace's makespan in real time: about 25 minutes with --time-squeeze 800.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
target="${1:-}"
case "$target" in
slurm) cluster="$here/cluster.sh" ;;
squall) cluster="$here/squall-cluster.sh" ;;
*) echo "usage: run.sh slurm|squall RUN_DIR [bench small-jobs options...]" >&2; exit 2 ;;
esac
run="$(mkdir -p "$2" && cd "$2" && pwd)"
shift 2
if [ -e "$run/$target" ]; then
  echo "run.sh: $run/$target exists: give a new RUN_DIR (job ids and logs start afresh)" >&2
  exit 2
fi
"$root/bin/squall" bench small-jobs "$@" --write-trace "$run/trace.csv" --write-cluster "$run/cluster.yml" \
  --write-jobs "$run/simulated-jobs.csv" | tee "$run/simulated.txt"
# The priority settings the simulator was given, for the Squall controller too (squall.priority.*).
priority=""
args=("$@")
for ((i = 0; i + 1 < ${#args[@]}; i++)); do
  case "${args[i]}=${args[i+1]}" in
  --priority=fifo) priority+=$'weight-age: 0\nweight-fairshare: 0\nweight-job-size: 0\nweight-partition: 0\nweight-qos: 0\n' ;;
  --priority=small-relative-to-time) priority+=$'small-relative-to-time: true\n' ;;
  --weight-job-size=*) priority+="weight-job-size: ${args[i+1]}"$'\n' ;;
  --favor-small=yes) priority+=$'favor-small: true\n' ;;
  esac
done
export SQUALL_CLUSTER_PRIORITY="$priority"
# The nodes as simulated (sizes and placement groups), for the Squall controller too.
SQUALL_CLUSTER_PARTITION="$(cat "$run/cluster.yml")"
export SQUALL_CLUSTER_PARTITION
trap '"$cluster" stop "$run/$target"' EXIT
"$cluster" start "$run/$target" 64
SLURM_CONF="$run/$target/slurm.conf" python3 "$here/replay.py" "$target" "$run/trace.csv" "$run/$target-out" \
  | tee "$run/$target.txt"
