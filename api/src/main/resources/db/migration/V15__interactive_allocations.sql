-- An interactive allocation (salloc, or srun outside a job) is a job without a batch script: its
-- nodes run nothing until srun launches a step, and it ends when its client relinquishes it.
ALTER TABLE job_scripts ADD COLUMN interactive BOOLEAN DEFAULT FALSE NOT NULL;
