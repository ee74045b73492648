#!/usr/bin/env bash
# Stops the local broker: SIGTERM (controlled shutdown), up to 30 s, then SIGKILL.
# Usage: stop.sh [--wipe]   --wipe also deletes the topic data (the next start formats afresh).
set -euo pipefail
source "$(dirname "$0")/env.sh"

if pid=$(kafka_running_pid); then
  kill -TERM "$pid"
  for _ in $(seq 1 60); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "kafka: pid $pid ignored SIGTERM for 30 s; killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
  echo "kafka: stopped pid $pid" >&2
else
  echo "kafka: not running" >&2
fi
rm -f "$KAFKA_PID_FILE"

if [ "${1:-}" = "--wipe" ]; then
  rm -rf "$KAFKA_DATA"
  echo "kafka: data wiped" >&2
fi
