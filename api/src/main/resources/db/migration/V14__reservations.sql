-- Advanced reservations (scontrol create reservation): nodes held from start_time to end_time for
-- the jobs that name them. Lists are comma-separated; purged once they end and no job runs in them.
CREATE TABLE reservations (
  name VARCHAR(200) PRIMARY KEY,
  start_time TIMESTAMP WITH TIME ZONE NOT NULL,
  end_time TIMESTAMP WITH TIME ZONE NOT NULL,
  nodes TEXT NOT NULL,
  partition_name VARCHAR(200),
  users TEXT NOT NULL,
  accounts TEXT NOT NULL,
  flags VARCHAR(200) NOT NULL
);
