#!/bin/bash
#SBATCH --job-name=sweep
#SBATCH --array=1-8%2
#SBATCH --gpus-per-node=1
#SBATCH --time=00:05:00
#SBATCH --output=sweep-%A_%a.out
# A learning-rate sweep: eight tasks, at most two running at once.
LR=$(awk -v i="$SLURM_ARRAY_TASK_ID" 'BEGIN { printf "%.4f", 0.0001 * 2 ^ i }')
echo "task $SLURM_ARRAY_TASK_ID of array $SLURM_ARRAY_JOB_ID: lr=$LR on GPU $CUDA_VISIBLE_DEVICES"
sleep 2
