# Shared settings of the local Kafka scripts; sourced, not run.
KAFKA_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
KAFKA_HOME="${KAFKA_HOME:-$KAFKA_DIR/.kafka}"
# Jars are shared by every broker started from this checkout, whatever its KAFKA_HOME.
KAFKA_LIBS="${KAFKA_LIBS:-$KAFKA_DIR/.kafka/libs}"
KAFKA_DATA="$KAFKA_HOME/data"
KAFKA_PID_FILE="$KAFKA_HOME/kafka.pid"
KAFKA_LOG_FILE="$KAFKA_HOME/server.log"
KAFKA_OUT_FILE="$KAFKA_HOME/kafka.out"
KAFKA_CONFIG="$KAFKA_HOME/server.properties"

# A process id from the pid file, only while that process is alive.
kafka_running_pid() {
  local pid
  [ -f "$KAFKA_PID_FILE" ] || return 1
  pid=$(cat "$KAFKA_PID_FILE")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}
