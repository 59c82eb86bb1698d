-- Finished jobs leave the controller's memory after MinJobAge; start-up and sacct find the ones
-- they need by when they ended (NULL: not finished), not by reading all history.
CREATE INDEX jobs_by_end_time ON jobs (end_time);
