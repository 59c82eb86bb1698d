#!/usr/bin/env bash
# session.sh LABEL [h2|pg]: the submission session of README "Benchmarks": a fresh `bin/squall server`
# started as a new user starts it (the default configuration in a new directory, the launcher's JVM
# flags, SQUALL_JAVA_OPTS as set), given ../shared/bench/rest-bench.py (REST_BENCH) with 1, 4 and 8
# clients twice (fresh-1, fresh-2), 20,000 more submissions with 8 clients, then 1, 4 and 8 again
# (warm). Prints rest-bench.py's lines as they come and, with THREADS=1, the server's CPU by thread
# over each run (threads.py). pg: a fresh database on the PostgreSQL server PG_ADMIN_URL names
# (a psql connection string, e.g. "host=127.0.0.1 port=5432 user=squall dbname=postgres").
# Run it under the build lock (flock /tmp/squall-mvn.lock ...) so that no build runs beside it.
set -u
label=$1; db=${2:-h2}
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/../.." && pwd)
bench=${REST_BENCH:-$root/../shared/bench/rest-bench.py}
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
dir=$(mktemp -d "${TMPDIR:-/tmp}/squall-session-XXXX"); cd "$dir"
if [ "$db" = pg ]; then
  name=squall_session_$(date +%s)
  psql -q "${PG_ADMIN_URL:?PG_ADMIN_URL names the PostgreSQL server}" -c "create database $name"
  host=$(psql -Atq "$PG_ADMIN_URL" -c "select coalesce(host(inet_server_addr()), 'localhost') || ':' || current_setting('port') || ' ' || current_user")
  export DATASOURCES_DEFAULT_URL="jdbc:postgresql://${host%% *}/$name" DATASOURCES_DEFAULT_USERNAME="${host#* }" \
    DATASOURCES_DEFAULT_PASSWORD="${PGPASSWORD:-}"
fi
SQUALL_PORT=$port "$root/bin/squall" server >server.log 2>&1 &
pid=$!
for _ in $(seq 1 240); do
  curl -sf -H 'Authorization: Bearer alice-token' "http://127.0.0.1:$port/v1/partitions" >/dev/null && break
  sleep 0.5
done
echo "$label $db: server pid $pid in $dir, load average $(cut -d' ' -f1-3 /proc/loadavg)"
run() {
  python3 "$here/threads.py" "$pid" snap "$dir/threads.json"
  echo "session $db $1: $(python3 "$bench" "http://127.0.0.1:$port" alice-token "$2" "$3" "$pid")"
  if [ -n "${THREADS:-}" ]; then python3 "$here/threads.py" "$pid" diff "$dir/threads.json"; fi
}
for round in fresh-1 fresh-2; do for c in 1 4 8; do run $round 2000 $c; done; done
run load-20000 20000 8
for c in 1 4 8; do run warm 2000 $c; done
echo "session $db rss: $(grep VmRSS "/proc/$pid/status")"
echo "$label $db: load average after $(cut -d' ' -f1-3 /proc/loadavg)"
kill "$pid"; wait "$pid" 2>/dev/null
