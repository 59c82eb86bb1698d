#!/bin/bash
# Squall controller boot, written by `squall infra synth` (Amazon Linux 2023). Words in double
# braces are filled in at synth time, most of them with what Terraform made.
# 1. A Java runtime; the server distribution (squall-server-VERSION.tar.gz, uploaded as
#    {{distribution}}; this waits for it) from the bucket, unpacked into /opt and linked as
#    /opt/squall-server.
# 2. The configuration: squall.yml (the file infra was synthesized from), then infra.yml (what
#    Terraform made), both from the bucket.
# 3. The secrets: the database login RDS keeps in Secrets Manager, and the agent token (put its
#    value with `aws secretsmanager put-secret-value` before the first boot; this waits for it),
#    into /etc/squall/server.env. The database connection is TLS only (sslmode=require): the
#    driver's default, prefer, would carry the login in clear to a server that offers no TLS.
# 4. The distribution's squall-server.service, reading infra.yml after squall.yml: controller-service.sh,
#    which follows this script on every cloud.
set -euo pipefail
export AWS_DEFAULT_REGION='{{region}}'
dnf install -y -q java-21-amazon-corretto-headless jq

# The bucket is made by the same apply as this machine, so the distribution cannot be there
# before it: wait for it to be uploaded, as for the agent token.
until aws s3 cp 's3://{{bucket}}/{{distribution}}' /tmp/squall-server.tar.gz; do
  echo "squall: waiting for s3://{{bucket}}/{{distribution}} (upload squall-server-VERSION.tar.gz there)" >&2
  sleep 30
done
# awk reads the whole listing: head would close the pipe early, and tar's SIGPIPE fail the script.
top=$(tar -tzf /tmp/squall-server.tar.gz | awk -F/ 'NR == 1 { print $1 }')
tar -xzf /tmp/squall-server.tar.gz -C /opt
ln -sfn "/opt/$top" /opt/squall-server
rm -f /tmp/squall-server.tar.gz
id squall >/dev/null 2>&1 || useradd --system --home-dir /var/lib/squall --shell /sbin/nologin squall

install -d -m 0755 /etc/squall
aws s3 cp 's3://{{bucket}}/{{config}}' /etc/squall/squall.yml
aws s3 cp 's3://{{bucket}}/{{infra_config}}' /etc/squall/infra.yml
chown squall /etc/squall/squall.yml /etc/squall/infra.yml
chmod 0600 /etc/squall/squall.yml /etc/squall/infra.yml

until token=$(aws secretsmanager get-secret-value --secret-id '{{agent_token_secret}}' --query SecretString --output text 2>/dev/null); do
  echo "squall: waiting for a value in secret {{agent_token_secret}}" >&2
  sleep 30
done
login=$(aws secretsmanager get-secret-value --secret-id '{{db_secret}}' --query SecretString --output text)
# The nodes reach the controller at this machine's private address (squall.controller-url), unless
# squall.yml gives the address itself.
imds=$(curl -fsS -X PUT -H 'X-aws-ec2-metadata-token-ttl-seconds: 60' http://169.254.169.254/latest/api/token)
ip=$(curl -fsS -H "X-aws-ec2-metadata-token: $imds" http://169.254.169.254/latest/meta-data/local-ipv4)
umask 077
cat > /etc/squall/server.env <<ENV
SQUALL_HOST=0.0.0.0
{{controller_url}}
SQUALL_DATA_DIR=/var/lib/squall
SQUALL_AGENT_TOKEN=$token
DATASOURCES_DEFAULT_URL=jdbc:postgresql://{{db_host}}:5432/squall?sslmode=require
DATASOURCES_DEFAULT_USERNAME=$(jq -r .username <<<"$login")
DATASOURCES_DEFAULT_PASSWORD=$(jq -r .password <<<"$login")
ENV
