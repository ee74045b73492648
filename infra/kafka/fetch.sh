#!/usr/bin/env bash
# Copies the Kafka broker jars named in pom.xml from Maven Central into .kafka/libs.
# Idempotent: does nothing once the jars are there (delete .kafka/libs to fetch again).
set -euo pipefail
source "$(dirname "$0")/env.sh"

marker="$KAFKA_LIBS/.fetched-$(sha1sum "$KAFKA_DIR/pom.xml" | cut -c1-12)"
if [ -f "$marker" ]; then
  exit 0
fi

echo "kafka: fetching broker jars from Maven Central into $KAFKA_LIBS" >&2
rm -rf "$KAFKA_LIBS"
mkdir -p "$KAFKA_LIBS"
mvn -q -B -f "$KAFKA_DIR/pom.xml" dependency:copy-dependencies \
  -DincludeScope=runtime -DoutputDirectory="$KAFKA_LIBS"
touch "$marker"
