#!/bin/bash
# Squall controller boot, written by `squall infra synth` (Debian 12 on GCE). Words in double
# braces are filled in at synth time, most of them with what Terraform made.
# 1. A Java runtime; the server distribution (squall-server-VERSION.tar.gz, uploaded as
#    {{distribution}}; this waits for it) from the bucket, unpacked into /opt and linked as
#    /opt/squall-server.
# 2. The configuration: squall.yml (the file infra was synthesized from), then infra.yml (what
#    Terraform made), both from the bucket.
# 3. The secrets from Secret Manager: the database password, and the agent token (add a version
#    with `gcloud secrets versions add` before the first boot; this waits for it), into
#    /etc/squall/server.env.
# 4. The distribution's squall-server.service, reading infra.yml after squall.yml: controller-service.sh,
#    which follows this script on every cloud.
# GCE runs this at every boot: each step may run again.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq openjdk-17-jre-headless

# The bucket is made by the same apply as this machine, so the distribution cannot be there
# before it: wait for it to be uploaded, as for the agent token.
until gcloud storage cp 'gs://{{bucket}}/{{distribution}}' /tmp/squall-server.tar.gz; do
  echo "squall: waiting for gs://{{bucket}}/{{distribution}} (upload squall-server-VERSION.tar.gz there)" >&2
  sleep 30
done
# awk reads the whole listing: head would close the pipe early, and tar's SIGPIPE fail the script.
top=$(tar -tzf /tmp/squall-server.tar.gz | awk -F/ 'NR == 1 { print $1 }')
tar -xzf /tmp/squall-server.tar.gz -C /opt
ln -sfn "/opt/$top" /opt/squall-server
rm -f /tmp/squall-server.tar.gz
id squall >/dev/null 2>&1 || useradd --system --home-dir /var/lib/squall --shell /usr/sbin/nologin squall

install -d -m 0755 /etc/squall
gcloud storage cp 'gs://{{bucket}}/{{config}}' /etc/squall/squall.yml
gcloud storage cp 'gs://{{bucket}}/{{infra_config}}' /etc/squall/infra.yml
chown squall /etc/squall/squall.yml /etc/squall/infra.yml
chmod 0600 /etc/squall/squall.yml /etc/squall/infra.yml

until token=$(gcloud secrets versions access latest --secret='{{agent_token_secret}}' 2>/dev/null); do
  echo "squall: waiting for a version of secret {{agent_token_secret}}" >&2
  sleep 30
done
password=$(gcloud secrets versions access latest --secret='{{db_secret}}')
# The nodes reach the controller at this machine's private address (squall.controller-url), unless
# squall.yml gives the address itself.
ip=$(curl -fsS -H 'Metadata-Flavor: Google' http://metadata.google.internal/computeMetadata/v1/instance/network-interfaces/0/ip)
umask 077
cat > /etc/squall/server.env <<ENV
SQUALL_HOST=0.0.0.0
{{controller_url}}
SQUALL_DATA_DIR=/var/lib/squall
SQUALL_AGENT_TOKEN=$token
DATASOURCES_DEFAULT_URL=jdbc:postgresql://{{db_host}}:5432/squall?sslmode=require
DATASOURCES_DEFAULT_USERNAME=squall
DATASOURCES_DEFAULT_PASSWORD=$password
ENV
