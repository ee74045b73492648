#!/usr/bin/env bash
# Makes sure the local PostgreSQL server answers on 127.0.0.1:5432, starting the Debian cluster if
# it is installed but stopped. Real-infrastructure tests and `pnpm test` use it.
set -euo pipefail
host=${PGHOST:-127.0.0.1}; port=${PGPORT:-5432}
if pg_isready -q -h "$host" -p "$port"; then exit 0; fi
if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
fi
for _ in $(seq 1 30); do
  pg_isready -q -h "$host" -p "$port" && exit 0
  sleep 1
done
echo "PostgreSQL is not answering on $host:$port; start it or set TEST_DATABASE_URL" >&2
exit 1
