-- Whether a job's current run has been sent its --signal before its time limit: sent once per run,
-- and not again after a controller restart.
ALTER TABLE jobs ADD COLUMN limit_signalled BOOLEAN DEFAULT FALSE NOT NULL;
