-- What scontrol update changed in a pending job: sbatch options, as JSON, applied after the
-- submission's own when its request is read again (after a restart). Kept per job row, since one
-- task of an array may be updated alone. Null for a job never updated.
ALTER TABLE jobs ADD COLUMN updates TEXT;
