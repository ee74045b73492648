#!/usr/bin/env bash
# `pnpm test`: every test of the platform. Unit and component tests, the integration tests on real
# Postgres and a real Kafka broker (started here when none runs), and the end-to-end suite twice:
# on the embedded defaults (embedded PostgreSQL + in-process bus) and on real Kafka + Postgres.
set -euo pipefail
cd "$(dirname "$0")/.."
export TEST_DATABASE_URL=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}
export TEST_KAFKA_BROKERS=${TEST_KAFKA_BROKERS:-127.0.0.1:9092}

infra/postgres/ensure.sh
infra/kafka/start.sh
pnpm exec turbo run build --output-logs=errors-only
pnpm --filter @msg/contracts run check:gen
# The AsyncAPI document's producers and consumers come from every service's declarations.
pnpm --filter @msg/suite run check:gen
# One package at a time: the integration tests share one broker and one database server, and the
# machine is small. Results are gathered into one summary line at the end.
export TEST_RESULTS_DIR="$PWD/.test-results"
rm -rf "$TEST_RESULTS_DIR" && mkdir -p "$TEST_RESULTS_DIR"
status=0
pnpm exec turbo run test --concurrency=1 --continue || status=$?
node infra/test-summary.mjs "$TEST_RESULTS_DIR" || status=1
exit $status
