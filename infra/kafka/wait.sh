#!/usr/bin/env bash
# Waits until the local broker answers metadata requests; fails loudly with the log tail otherwise.
# Usage: wait.sh [timeout-seconds, default 90]
set -euo pipefail
source "$(dirname "$0")/env.sh"

timeout_s="${1:-90}"
deadline=$((SECONDS + timeout_s))

# kafkajs (packages/bus) gives a real metadata round trip; before `pnpm install` there is no
# kafkajs, so fall back to the port being open plus the broker's own "started" log line.
probe() {
  if [ -d "$KAFKA_DIR/../../packages/bus/node_modules/kafkajs" ]; then
    node "$KAFKA_DIR/probe.cjs" "127.0.0.1:$KAFKA_PORT"
  else
    (exec 3<>"/dev/tcp/127.0.0.1/$KAFKA_PORT") 2>/dev/null &&
      grep -q 'Kafka Server started' "$KAFKA_LOG_FILE" 2>/dev/null
  fi
}

until probe; do
  if [ -f "$KAFKA_PID_FILE" ] && ! kafka_running_pid >/dev/null; then
    echo "kafka: the broker process exited during start-up" >&2
    tail -n 40 "$KAFKA_OUT_FILE" "$KAFKA_LOG_FILE" >&2 2>/dev/null || true
    exit 1
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "kafka: no answer on 127.0.0.1:$KAFKA_PORT after ${timeout_s}s" >&2
    tail -n 40 "$KAFKA_OUT_FILE" "$KAFKA_LOG_FILE" >&2 2>/dev/null || true
    exit 1
  fi
  sleep 1
done
echo "kafka: ready on 127.0.0.1:$KAFKA_PORT" >&2
