import { fileURLToPath } from 'node:url';
import { type Bus, type Subscription, subscribeToEvents } from '@msg/bus';
import { type OptOutChange, Topics } from '@msg/contracts';
import { quoteSchema, type Sql } from '@msg/db';
import type { ReadinessCheck } from '@msg/http';

/**
 * The Prisma-format migrations folder of the replica table (`opt_out`). A service lists it in its
 * migrate() folders (the service kit's `database.migrations`); the table lands in its own schema.
 * The path is the same from src/ and dist/.
 */
export const OPT_OUT_MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

/** The replica table of `schema`. */
export function optOutTable(schema: string): string {
  return `${quoteSchema(schema)}."opt_out"`;
}

/**
 * Applies one change to `schema`'s replica unless the row already holds a later one (last writer
 * wins on `at`). Idempotent: the same event twice, or an older event after a newer one (a
 * redelivery, or two producers of one key), leaves the newest state. Returns whether it changed
 * the row.
 */
export async function applyOptOut(
  sql: Sql,
  schema: string,
  change: OptOutChange,
): Promise<boolean> {
  const table = optOutTable(schema);
  const result = await sql.query(
    `INSERT INTO ${table} AS o ("account_id", "msisdn", "opted_out", "keyword", "source", "changed_at")
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT ("account_id", "msisdn") DO UPDATE
       SET "opted_out" = EXCLUDED."opted_out", "keyword" = EXCLUDED."keyword",
           "source" = EXCLUDED."source", "changed_at" = EXCLUDED."changed_at"
       WHERE o."changed_at" <= EXCLUDED."changed_at"`,
    [
      change.accountId,
      change.msisdn,
      change.optedOut,
      change.keyword ?? null,
      change.source,
      change.at,
    ],
  );
  return result.rowCount === 1;
}

export interface OptOutReplicaOptions {
  bus: Bus;
  /** A pg Pool (or anything with its query) on the service's database. */
  sql: Sql;
  schema: string;
  /** One group per service (its replicas share the table): e.g. `sms-optouts`. */
  groupId: string;
}

export interface OptOutReplica extends Subscription {
  /** Ready once everything on optouts.v1 at start was applied. */
  readiness: ReadinessCheck;
}

/**
 * Follows optouts.v1 from its beginning into `schema`'s replica table. Changes of one key arrive
 * in order (one partition), and applyOptOut keeps the latest anyway, so no dedupe table is needed.
 */
export async function startOptOutReplica({
  bus,
  sql,
  schema,
  groupId,
}: OptOutReplicaOptions): Promise<OptOutReplica> {
  let ready = false;
  const subscription = await subscribeToEvents(bus, {
    topic: Topics.optOuts,
    groupId,
    fromBeginning: true,
    handler: async (event) => {
      await applyOptOut(sql, schema, event.payload);
    },
  });
  void subscription.caughtUp().then(() => {
    ready = true;
  });
  return {
    caughtUp: () => subscription.caughtUp(),
    stop: () => subscription.stop(),
    readiness: { name: 'opt-out-replica', isReady: () => ready },
  };
}

/** What a service's start-up offers (the service kit's context fits). */
export interface ReplicaHost {
  bus: Bus;
  pool: Sql;
  readiness: ReadinessCheck[];
  onStop(name: string, stop: () => Promise<void>): void;
}

/**
 * The consumer of optouts.v1 that followOptOuts starts for `schema`, as the service's definition
 * declares it (`consumes` of @msg/service-kit).
 */
export function optOutsConsumer(schema: string) {
  return { topic: Topics.optOuts, group: `${schema}-optouts` } as const;
}

/**
 * A sending service's replica, started before it serves: consumer group `<schema>-optouts`, its
 * readiness added (ready once caught up) and its stop registered. The table persists, so after
 * the first start only the changes since the last run are read.
 */
export async function followOptOuts(host: ReplicaHost, schema: string): Promise<OptOutReplica> {
  const replica = await startOptOutReplica({
    bus: host.bus,
    sql: host.pool,
    schema,
    groupId: optOutsConsumer(schema).group,
  });
  host.onStop('opt-out-replica', () => replica.stop());
  host.readiness.push(replica.readiness);
  return replica;
}
