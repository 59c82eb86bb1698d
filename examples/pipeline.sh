#!/bin/bash
# A dependency chain: prepare, then train only if preparing succeeded, and report either way.
# Run it with the Squall bin/ directory on the PATH (export PATH=$PWD/bin:$PATH).
set -euo pipefail
cd "$(dirname "$0")"
prep=$(sbatch --parsable --job-name=prep --gpus-per-node=1 --output=pipeline-prep-%j.out \
  --wrap='echo preparing data; sleep 2; echo done > pipeline-data.txt')
train=$(sbatch --parsable --job-name=train --dependency=afterok:"$prep" --gpus-per-node=2 \
  --output=pipeline-train-%j.out --wrap='cat pipeline-data.txt; echo training')
report=$(sbatch --parsable --job-name=report --dependency=afterany:"$train" --output=pipeline-report-%j.out \
  --wrap='echo pipeline finished')
echo "prep $prep -> train $train (afterok) -> report $report (afterany)"
squeue -j "$prep,$train,$report"
