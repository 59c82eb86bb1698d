
# The same on every cloud (it follows the cloud's own boot script): the server distribution's unit,
# reading infra.yml (what Terraform made) after squall.yml.
install -m 0644 /opt/squall-server/systemd/squall-server.service /etc/systemd/system/
install -d /etc/systemd/system/squall-server.service.d
cat > /etc/systemd/system/squall-server.service.d/infra.conf <<'UNIT'
[Service]
ExecStart=
ExecStart=/opt/squall-server/bin/squall-server --config /etc/squall/squall.yml --config /etc/squall/infra.yml
UNIT
systemctl daemon-reload
systemctl enable --now squall-server
