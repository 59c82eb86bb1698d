-- Each array task has a job id of its own (Slurm's SLURM_JOB_ID), given when it leaves its array's
-- pending remainder: the first to leave gets the array's id, later ones new ids. job_id stays the
-- job's or array's id, which with task_id names the row (job_key).
ALTER TABLE jobs ADD COLUMN own_job_id BIGINT;

-- Tasks stored before this shared their array's id: they keep it (a number names the whole array
-- before any task, as always), so no id given out before is taken by a task now.
UPDATE jobs SET own_job_id = job_id;
ALTER TABLE jobs ALTER COLUMN own_job_id SET NOT NULL;
CREATE INDEX jobs_by_own_job_id ON jobs (own_job_id);
