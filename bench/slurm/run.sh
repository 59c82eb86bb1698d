#!/usr/bin/env bash
# run.sh RUN_DIR [bench small-jobs options...]: the same trace on Squall (simulated time) and on a
# real Slurm (real time), as root on this host. Writes the trace with
# `bin/squall bench small-jobs OPTIONS --write-trace RUN_DIR/trace.csv` (Squall's figures in
# RUN_DIR/squall.txt), starts the emulated 64-node Slurm of cluster.sh in RUN_DIR/slurm (a fresh
# one: RUN_DIR/slurm must not exist), replays the trace on it (replay.py; figures in
# RUN_DIR/slurm.txt, one line a job in RUN_DIR/out/jobs.csv) and stops the daemons it started.
# The replay takes the trace's makespan in real time: about 25 minutes with --time-squeeze 800.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
run="$(mkdir -p "$1" && cd "$1" && pwd)"
shift
if [ -e "$run/slurm" ]; then
  echo "run.sh: $run/slurm exists: give a new RUN_DIR (Slurm's job ids and completion log start afresh)" >&2
  exit 2
fi
"$root/bin/squall" bench small-jobs "$@" --write-trace "$run/trace.csv" | tee "$run/squall.txt"
trap '"$here/cluster.sh" stop "$run/slurm"' EXIT
"$here/cluster.sh" start "$run/slurm" 64
SLURM_CONF="$run/slurm/slurm.conf" python3 "$here/replay.py" "$run/trace.csv" "$run/out" | tee "$run/slurm.txt"
