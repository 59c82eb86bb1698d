#!/bin/bash
# Squall controller boot, written by `squall infra synth` (Amazon Linux 2023). Words in double
# braces are filled in at synth time, most of them with what Terraform made.
# 1. A Java runtime; the server distribution from the bucket, unpacked into /opt/squall.
# 2. The configuration: squall.yml (the file infra was synthesized from), then infra.yml (what
#    Terraform made), both from the bucket.
# 3. The secrets: the database login RDS keeps in Secrets Manager, and the agent token (put its
#    value with `aws secretsmanager put-secret-value` before the first boot; this waits for it).
# 4. squall-server as a systemd service, listening on every address: the nodes reach it.
set -euo pipefail
export AWS_DEFAULT_REGION='{{region}}'
dnf install -y -q java-21-amazon-corretto-headless jq

install -d -m 0755 /opt/squall
aws s3 cp 's3://{{bucket}}/{{distribution}}' /tmp/squall-server.tar.gz
tar -xzf /tmp/squall-server.tar.gz -C /opt/squall --strip-components=1
rm -f /tmp/squall-server.tar.gz

install -d -m 0700 /etc/squall
aws s3 cp 's3://{{bucket}}/{{config}}' /etc/squall/squall.yml
aws s3 cp 's3://{{bucket}}/{{infra_config}}' /etc/squall/infra.yml

until token=$(aws secretsmanager get-secret-value --secret-id '{{agent_token_secret}}' --query SecretString --output text 2>/dev/null); do
  echo "squall: waiting for a value in secret {{agent_token_secret}}" >&2
  sleep 30
done
login=$(aws secretsmanager get-secret-value --secret-id '{{db_secret}}' --query SecretString --output text)
umask 077
cat > /etc/squall/squall.env <<ENV
SQUALL_HOST=0.0.0.0
MICRONAUT_CONFIG_FILES=/etc/squall/squall.yml,/etc/squall/infra.yml
DATASOURCES_DEFAULT_URL=jdbc:postgresql://{{db_host}}:5432/squall
DATASOURCES_DEFAULT_USERNAME=$(jq -r .username <<<"$login")
DATASOURCES_DEFAULT_PASSWORD=$(jq -r .password <<<"$login")
SQUALL_AGENT_TOKEN=$token
ENV

cat > /etc/systemd/system/squall-server.service <<'UNIT'
[Unit]
Description=Squall controller
After=network-online.target
Wants=network-online.target

[Service]
EnvironmentFile=/etc/squall/squall.env
WorkingDirectory=/opt/squall
ExecStart=/opt/squall/bin/squall-server
Restart=on-failure

[Install]
WantedBy=multi-user.target
UNIT
systemctl daemon-reload
systemctl enable --now squall-server
