import { quoteSchema } from './schema-name.js';

/**
 * DDL of the outbox and dedupe tables in one service's schema. Services create them in their
 * own migrations (from Prisma models of the same shape, see the README); tests create them with
 * this. Names of constraints and indexes follow Prisma's conventions so both agree.
 */
export function outboxMigrationSql(schema: string): string {
  const s = quoteSchema(schema);
  return `CREATE TABLE IF NOT EXISTS ${s}."outbox_event" (
    "seq" BIGSERIAL NOT NULL,
    "id" UUID NOT NULL,
    "topic" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "headers" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),
    CONSTRAINT "outbox_event_pkey" PRIMARY KEY ("seq")
);
CREATE UNIQUE INDEX IF NOT EXISTS "outbox_event_id_key" ON ${s}."outbox_event"("id");
-- The relay only ever reads unpublished rows in order; published rows stay for audit.
CREATE INDEX IF NOT EXISTS "outbox_event_unpublished_idx" ON ${s}."outbox_event"("seq") WHERE "published_at" IS NULL;

CREATE TABLE IF NOT EXISTS ${s}."processed_event" (
    "consumer" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "processed_event_pkey" PRIMARY KEY ("consumer", "event_id")
);
`;
}
