-- Where each instance sits in the provider's network (EC2's DescribeInstanceTopology): its
-- network nodes, closest to the root first, comma-separated; null until the provider tells.
ALTER TABLE instances ADD COLUMN network_nodes VARCHAR(2000);
