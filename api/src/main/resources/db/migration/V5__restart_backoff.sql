-- A requeued job's restart backoff (after repeated spot interruptions): not started before this.
-- Kept apart from the request's --begin, which would set back the job's age.
ALTER TABLE jobs ADD COLUMN not_before TIMESTAMP WITH TIME ZONE;
