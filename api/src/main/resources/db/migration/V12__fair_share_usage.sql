-- Fair-share usage as the controller charges and decays it (core's UsageLedger), so that a
-- restart keeps it, decays it from when it was last decayed, and charges no running job twice.
-- One row: the instant the figures are decayed to (the last PriorityCalcPeriod).
CREATE TABLE usage_ledger (
  id INTEGER PRIMARY KEY,
  decayed_at TIMESTAMP WITH TIME ZONE NOT NULL
);

-- 'association:ACCOUNT/USER' (billed TRES-seconds) or 'qos:NAME' (GPU-seconds), as of decayed_at.
CREATE TABLE usage_figures (
  figure VARCHAR(300) PRIMARY KEY,
  amount DOUBLE PRECISION NOT NULL
);

-- Each running job charged so far: up to when. Its end charges only what lies past this.
CREATE TABLE usage_watermarks (
  job_key VARCHAR(40) PRIMARY KEY,
  charged_until TIMESTAMP WITH TIME ZONE NOT NULL
);
