#!/bin/bash
#SBATCH --job-name=hello-gpu
#SBATCH --gpus-per-node=1
#SBATCH --time=00:05:00
#SBATCH --output=hello-gpu-%j.out
# One GPU on one node: shows what the job was given.
echo "job $SLURM_JOB_ID on $(hostname) as $SLURMD_NODENAME"
echo "GPUs: CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES (SLURM_GPUS_ON_NODE=$SLURM_GPUS_ON_NODE)"
echo "partition $SLURM_JOB_PARTITION, submitted from $SLURM_SUBMIT_DIR"
