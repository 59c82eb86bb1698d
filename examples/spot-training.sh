#!/bin/bash
# A training loop that survives spot interruptions (Squall's checkpoint contract, README:
# "Spot interruptions and checkpoints"). It advances a step counter and a running state,
# saves a checkpoint every CHECKPOINT_EVERY steps and whenever it gets SIGUSR1 (the checkpoint
# signal Squall sends when a spot notice arrives), registers each checkpoint, and resumes from
# $SQUALL_RESTORE_FROM after a requeue. Its last line is the same whether or not it was
# interrupted on the way.
#SBATCH --job-name=spot-training
#SBATCH --nodes=2
#SBATCH --gres=gpu:8
#SBATCH --signal=B:USR1@60
#SBATCH --requeue
#SBATCH --output=spot-training-%j.out

STEPS=${STEPS:-60}
CHECKPOINT_EVERY=${CHECKPOINT_EVERY:-10}
STEP_SECONDS=${STEP_SECONDS:-0.5}

step=0
state=1
if [ -n "${SQUALL_RESTORE_FROM:-}" ]; then
  read -r step state < "$SQUALL_RESTORE_FROM"
  echo "restart $SLURM_RESTART_COUNT: resuming from step $step ($SQUALL_RESTORE_FROM)"
else
  echo "starting on $SLURM_JOB_NODELIST"
fi

checkpoint() {
  local file="$SQUALL_CHECKPOINT_DIR/step-$step.ckpt"
  # Written aside and moved into place: a checkpoint is whole or absent.
  echo "$step $state" > "$file.tmp" && mv "$file.tmp" "$file"
  if command -v squall > /dev/null; then
    squall checkpoint register "$file" --step "$step"
  fi
}
trap 'checkpoint; echo "checkpoint at step $step (signal)"' USR1

srun --label hostname   # every node of the gang takes part

while [ "$step" -lt "$STEPS" ]; do
  state=$(( (state * 31 + step) % 1000003 ))
  step=$((step + 1))
  if [ $((step % CHECKPOINT_EVERY)) -eq 0 ]; then
    checkpoint
  fi
  sleep "$STEP_SECONDS" & wait $!   # wait, not sleep: the trap runs at once
done
echo "done: step $step state $state"
