#!/bin/bash
# Squall controller boot, written by `squall infra synth` (Debian 12 on GCE). Words in double
# braces are filled in at synth time, most of them with what Terraform made.
# 1. A Java runtime; the server distribution from the bucket, unpacked into /opt/squall.
# 2. The configuration: squall.yml (the file infra was synthesized from), then infra.yml (what
#    Terraform made), both from the bucket.
# 3. The secrets from Secret Manager: the database password, and the agent token (add a version
#    with `gcloud secrets versions add` before the first boot; this waits for it).
# 4. squall-server as a systemd service, listening on every address: the nodes reach it.
# GCE runs this at every boot: each step may run again.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq openjdk-17-jre-headless

install -d -m 0755 /opt/squall
gcloud storage cp 'gs://{{bucket}}/{{distribution}}' /tmp/squall-server.tar.gz
tar -xzf /tmp/squall-server.tar.gz -C /opt/squall --strip-components=1
rm -f /tmp/squall-server.tar.gz

install -d -m 0700 /etc/squall
gcloud storage cp 'gs://{{bucket}}/{{config}}' /etc/squall/squall.yml
gcloud storage cp 'gs://{{bucket}}/{{infra_config}}' /etc/squall/infra.yml

until token=$(gcloud secrets versions access latest --secret='{{agent_token_secret}}' 2>/dev/null); do
  echo "squall: waiting for a version of secret {{agent_token_secret}}" >&2
  sleep 30
done
password=$(gcloud secrets versions access latest --secret='{{db_secret}}')
umask 077
cat > /etc/squall/squall.env <<ENV
SQUALL_HOST=0.0.0.0
MICRONAUT_CONFIG_FILES=/etc/squall/squall.yml,/etc/squall/infra.yml
DATASOURCES_DEFAULT_URL=jdbc:postgresql://{{db_host}}:5432/squall?sslmode=require
DATASOURCES_DEFAULT_USERNAME=squall
DATASOURCES_DEFAULT_PASSWORD=$password
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
