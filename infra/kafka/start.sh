#!/usr/bin/env bash
# Starts a one-node Kafka (KRaft: broker and controller in one process) on 127.0.0.1 only.
# Idempotent: exits 0 at once when a broker already answers. Data survives restarts
# (stop.sh --wipe removes it). Env: KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT (9093).
set -euo pipefail
source "$(dirname "$0")/env.sh"

if node "$KAFKA_DIR/probe.cjs" "127.0.0.1:$KAFKA_PORT" 2>/dev/null; then
  echo "kafka: already running on 127.0.0.1:$KAFKA_PORT" >&2
  exit 0
fi
if pid=$(kafka_running_pid); then
  echo "kafka: process $pid is starting; waiting for it" >&2
  exec "$KAFKA_DIR/wait.sh"
fi

"$KAFKA_DIR/fetch.sh"
mkdir -p "$KAFKA_DATA"

# Written on every start so that a changed port takes effect; the data folder is kept.
cat >"$KAFKA_CONFIG" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
log.dirs=$KAFKA_DATA
# One node: every internal topic has a single replica.
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
default.replication.factor=1
min.insync.replicas=1
num.partitions=3
# Services create their own topics (bus.ensureTopics); a typo must fail, not create a topic.
auto.create.topics.enable=false
# Consumers join at once instead of waiting 3 s for more members: keeps tests fast.
group.initial.rebalance.delay.ms=0
log.retention.hours=168
log.segment.bytes=67108864
PROPS

cat >"$KAFKA_HOME/log4j.properties" <<PROPS
log4j.rootLogger=INFO, file
log4j.appender.file=org.apache.log4j.RollingFileAppender
log4j.appender.file.File=$KAFKA_LOG_FILE
log4j.appender.file.MaxFileSize=20MB
log4j.appender.file.MaxBackupIndex=2
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
log4j.logger.kafka.log.LogCleaner=WARN
PROPS

java_opts=(-Xms256m -Xmx512m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true
  "-Dlog4j.configuration=file:$KAFKA_HOME/log4j.properties" "-Dkafka.logs.dir=$KAFKA_HOME")

# Format the storage once, with a fresh random cluster id (single static voter: node 1).
if [ ! -f "$KAFKA_DATA/meta.properties" ]; then
  cluster_id=$(java "${java_opts[@]}" -cp "$KAFKA_LIBS/*" kafka.tools.StorageTool random-uuid)
  java "${java_opts[@]}" -cp "$KAFKA_LIBS/*" kafka.tools.StorageTool format \
    -t "$cluster_id" -c "$KAFKA_CONFIG" --ignore-formatted >>"$KAFKA_OUT_FILE" 2>&1
fi

# setsid + redirected stdio: the broker outlives the shell (or test) that started it, and a
# caller reading our output is not kept waiting on the broker's open pipe.
setsid java "${java_opts[@]}" -cp "$KAFKA_LIBS/*" kafka.Kafka "$KAFKA_CONFIG" \
  >>"$KAFKA_OUT_FILE" 2>&1 </dev/null &
echo $! >"$KAFKA_PID_FILE"
echo "kafka: started pid $(cat "$KAFKA_PID_FILE"), log $KAFKA_LOG_FILE" >&2

exec "$KAFKA_DIR/wait.sh"
