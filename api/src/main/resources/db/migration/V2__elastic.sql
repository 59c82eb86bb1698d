-- Elastic capacity: every launch is recorded before the provider is called (with its
-- idempotency token), and every instance a launch made is recorded against its node, so a
-- restarted controller can tell its instances from orphans.
CREATE TABLE launch_intents (
  token VARCHAR(255) PRIMARY KEY,
  partition_name VARCHAR(128) NOT NULL,
  nodes TEXT NOT NULL,
  offering VARCHAR(255) NOT NULL,
  placement_group VARCHAR(255),
  state VARCHAR(20) NOT NULL,
  detail VARCHAR(2000),
  created TIMESTAMP WITH TIME ZONE NOT NULL,
  updated TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX launch_intents_by_state ON launch_intents (state);

CREATE TABLE instances (
  node_name VARCHAR(128) PRIMARY KEY,
  instance_id VARCHAR(255) NOT NULL,
  launch_token VARCHAR(255) NOT NULL,
  instance_type VARCHAR(128) NOT NULL,
  zone VARCHAR(128) NOT NULL,
  capacity_type VARCHAR(20) NOT NULL,
  price_per_hour DOUBLE PRECISION NOT NULL,
  created TIMESTAMP WITH TIME ZONE NOT NULL
);
