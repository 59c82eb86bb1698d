-- When a pending job became eligible (no hold, begin time reached, dependency met): its age, and
-- so its priority, counts from then (Slurm's accrue time). Null while it has not been, or is held.
ALTER TABLE jobs ADD COLUMN eligible_since TIMESTAMP WITH TIME ZONE;

-- Jobs already stored aged from their submission: they keep that age, held ones excepted (they
-- become eligible when released). One that still waits for a dependency or a begin time is
-- counted from its submission too (its request is not readable here); every job submitted from
-- now on ages only while eligible.
UPDATE jobs SET eligible_since = (SELECT s.submit_time FROM job_scripts s WHERE s.job_id = jobs.job_id)
  WHERE NOT held;
