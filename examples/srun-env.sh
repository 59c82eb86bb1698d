#!/bin/bash
#SBATCH --job-name=srun-env
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=2
#SBATCH --gpus-per-node=4
#SBATCH --time=00:05:00
#SBATCH --output=srun-env-%j.out
# Two nodes, two tasks each: every rank prints where it runs, as torchrun launchers rely on.
MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
export MASTER_ADDR
echo "nodes: $SLURM_JOB_NODELIST ($SLURM_NNODES), master $MASTER_ADDR"
srun --label bash -c 'echo "rank $SLURM_PROCID/$SLURM_NTASKS local $SLURM_LOCALID node $SLURM_NODEID ($SLURMD_NODENAME) GPUs $CUDA_VISIBLE_DEVICES master $MASTER_ADDR"'
