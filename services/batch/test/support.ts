import { gzipSync } from 'node:zlib';
import { hashSecret } from '@msg/auth';
import {
  type AccountState,
  type BatchDomainEvent,
  batchEventCallback,
  type EventEnvelope,
  Topics,
} from '@msg/contracts';
import {
  accountState,
  publishAccount,
  publishProtectedSenders,
  startTestRuntime,
} from '@msg/testing';
import request from 'supertest';
import { loadBatchConfig } from '../src/config.js';
import { startBatch } from '../src/service.js';

export const TEST_KEY = { kid: 'test-1', secret: 'a-test-signing-secret-of-32-chars!!' };
export const API_KEY = 'test-api-key-0123456789';
/** Real Postgres of the integration tier. */
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A message some consumer saw on a topic. */
export interface Seen {
  key: string | null;
  value: EventEnvelope;
}

export interface StartTestBatchOptions {
  /** Extra environment for loadBatchConfig (e.g. BATCH_MAX_BODY_BYTES). */
  env?: Record<string, string>;
  /** Real Postgres URL (integration tier); embedded Postgres when absent. */
  databaseUrl?: string;
}

/** The JSON text of `body`, gzip-compressed, as createBatch wants it. */
export function gzipJson(body: unknown): Buffer {
  return gzipSync(Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)));
}

/** A valid createBatch body with `count` recipients (+4670… numbers); override batch members. */
export function batchBody(count: number, batch: Record<string, unknown> = {}) {
  return {
    batch: {
      sms_config: { sender_id: 'Acme', message_template: 'Hello {{name}}' },
      recipients: Array.from({ length: count }, (_, i) => ({
        phone_number: `+467${String(i).padStart(8, '0')}`,
        external_message_id: `ext-${i}`,
        field_message: { name: `N${i}` },
      })),
      ...batch,
    },
  };
}

/**
 * The batch service (startBatch) on embedded Postgres — or real Postgres with `databaseUrl` —
 * and the in-process bus, with helpers that play the admin service (accounts.v1), fetch tokens,
 * send gzip bodies, and a recorder of what it publishes (batch.events.v1, sms.outbound.v1).
 */
export async function startTestBatch({ env = {}, databaseUrl }: StartTestBatchOptions = {}) {
  const runtime = await startTestRuntime({ service: 'batch', ...(databaseUrl && { databaseUrl }) });
  const { pool, bus, logger } = runtime;
  const config = loadBatchConfig({
    JWT_KEYS: `${TEST_KEY.kid}:${TEST_KEY.secret}`,
    JWT_ACTIVE_KID: TEST_KEY.kid,
    LOG_LEVEL: 'error',
    NODE_ENV: 'test',
    ...env,
  });
  const batch = await startBatch(config, { pool, bus, logger });
  const apiKeyHash = await hashSecret(API_KEY);
  const seen: Record<string, Seen[]> = { [Topics.smsOutbound]: [], [Topics.batchEvents]: [] };
  // The service creates what it publishes when it starts its workers; the recorder may come first.
  await bus.ensureTopics([{ topic: Topics.smsOutbound }, { topic: Topics.batchEvents }]);
  const recorder = await bus.subscribe({
    groupId: 'batch-test-recorder',
    topics: [Topics.smsOutbound, Topics.batchEvents],
    fromBeginning: true,
    handler: async ({ topic, key, value }) => {
      seen[topic]?.push({ key, value });
    },
  });

  const service = {
    app: batch.app,
    pool,
    bus,
    config,
    seen,

    /** An active account with 'batch_sms' and the test API key; override anything. */
    account(overrides: Partial<AccountState> = {}): AccountState {
      return accountState({
        apiKeys: [
          { id: crypto.randomUUID(), hash: apiKeyHash, createdAt: new Date().toISOString() },
        ],
        permissions: ['batch_sms'],
        ...overrides,
      });
    },

    /** Publishes as the admin service does, then gives the directory a moment to read it. */
    async publishAccount(state: AccountState): Promise<AccountState> {
      return publishAccount(bus, state, (s) => batch.accounts.byId(s.id)?.version === s.version);
    },

    /** The operator's protected sender names, as admin publishes them; waits until they apply. */
    async publishProtectedSenders(names: string[]): Promise<void> {
      await publishProtectedSenders(bus, names, () =>
        names.every((name) => batch.protectedSenders.names().covers(name)),
      );
    },

    /** A new account, published, and an access token for it. */
    async accountWithToken(overrides: Partial<AccountState> = {}) {
      const account = await service.publishAccount(service.account(overrides));
      return { account, token: await service.tokenFor(account) };
    },

    /** An access token of the account (POST /v1/oauth/token). */
    async tokenFor(account: AccountState): Promise<string> {
      const res = await request(batch.app)
        .post('/v1/oauth/token')
        .send({ client_id: account.name, client_secret: API_KEY });
      if (res.status !== 200) throw new Error(`token: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.access_token as string;
    },

    /** POST /v1/batches with a gzip body (an object is JSON-encoded and compressed). */
    createBatch(token: string, body: unknown, headers: Record<string, string> = {}) {
      const bytes = Buffer.isBuffer(body) ? body : gzipJson(body);
      return (
        request(batch.app)
          .post('/v1/batches')
          .set({
            Authorization: `Bearer ${token}`,
            'Content-Type': 'application/json',
            'Content-Encoding': 'gzip',
            ...headers,
          })
          // superagent would JSON-encode a Buffer sent as application/json: send the bytes as they are.
          .serialize((data: unknown) => data as string)
          .send(bytes)
      );
    },

    /** The batch.events.v1 events published for `batchId` (needs the outbox relay running). */
    eventsFor(batchId: string): Seen[] {
      return (seen[Topics.batchEvents] ?? []).filter(
        (m) => (m.value.payload as BatchDomainEvent).batchId === batchId,
      );
    },

    /**
     * What was stored of a batch numbered as `batchBody` numbers it: message count, first and last seq, how
     * many carry the phone number and field_message that body gave their position, and the
     * batch row's total_messages.
     */
    async storedRecipients(batchId: string) {
      const { rows } = await pool.query<{ n: string; min: number; max: number; ok: string }>(
        `SELECT count(*)::text AS n, min(seq) AS min, max(seq) AS max,
                count(*) FILTER (WHERE phone_number = '+467' || lpad((seq - 1)::text, 8, '0')
                                   AND fields->>'name' = 'N' || (seq - 1))::text AS ok
           FROM batch.message WHERE batch_id = $1`,
        [batchId],
      );
      const batch = await pool.query<{ total_messages: number }>(
        'SELECT total_messages FROM batch.batch WHERE id = $1',
        [batchId],
      );
      return { ...rows[0], total: batch.rows[0]?.total_messages };
    },

    /** The outbox rows (queued events) of the batch, oldest first. */
    /**
     * The batch's events queued in the outbox, each with the callback request the notifier makes
     * of it (batchEventCallback): what the customer will be sent.
     */
    async outboxFor(batchId: string) {
      const { rows } = await pool.query<{ topic: string; value: EventEnvelope<BatchDomainEvent> }>(
        `SELECT topic, value FROM batch.outbox_event
          WHERE value->'payload'->>'batchId' = $1
          ORDER BY seq`,
        [batchId],
      );
      return rows.map(({ topic, value }) => ({
        topic,
        value: { ...value, payload: batchEventCallback(value) },
      }));
    },

    async stop() {
      await recorder.stop();
      await batch.stop();
      await runtime.stop();
    },
  };
  return service;
}

export type TestBatchService = Awaited<ReturnType<typeof startTestBatch>>;
