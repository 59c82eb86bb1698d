-- The budget tick (every budget-interval), cost reports and sacct read only the bills, holds and
-- interruptions that overlap the span asked (Costs). Without these the database scans the whole
-- money history to find them, so their cost would grow with history. PostgreSQL answers
-- "gone IS NULL OR gone > :from" with a BitmapOr of two scans of the same index.
CREATE INDEX instance_bills_by_gone ON instance_bills (gone);
CREATE INDEX holdings_by_held_to ON holdings (held_to);
CREATE INDEX interruptions_by_noticed ON interruptions (noticed_at);
