-- Who set a node's reason and when: sinfo -R's USER and TIMESTAMP columns, and scontrol show
-- node's "Reason=... [user@time]". Null while the node has no reason. Reasons stored before this
-- migration keep none (printed as Unknown), as they were never recorded.
ALTER TABLE nodes ADD COLUMN reason_user VARCHAR(128);
ALTER TABLE nodes ADD COLUMN reason_time TIMESTAMP WITH TIME ZONE;
