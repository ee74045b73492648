import { randomBytes } from 'node:crypto';
import { createSecretBox, parseSecretBoxKey } from '@msg/auth';
import { type Bus, createKafkaBus } from '@msg/bus';
import { createPool } from '@msg/db';
import { createLogger } from '@msg/logger';
import type pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadNotifierConfig } from '../src/config.js';
import { type Notifier, startNotifier } from '../src/service.js';
import { createSigningSecretStore } from '../src/signing/signing-secrets.js';
import { type Receiver, startReceiver } from './receiver.js';
import { callbackRequest, collectDeadLetters, eventually, publishCallback } from './support.js';

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const brokers = (process.env.TEST_KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
const logger = createLogger({ service: 'notifier-it', level: 'error' });
const run = randomBytes(4).toString('hex');
const databaseName = `msg_notifier_test_${run}`;
const secretsKey = randomBytes(32).toString('hex');

let admin: pg.Pool;
let pool: pg.Pool;
let bus: Bus;
let notifier: Notifier;
let target: Receiver;
let deadLetters: Awaited<ReturnType<typeof collectDeadLetters>>;

beforeAll(async () => {
  // A scratch database per run: the schema name "notifier" is fixed and must not meet another run.
  admin = createPool({ url: adminUrl, max: 1, applicationName: 'notifier-it-admin' });
  await admin.query(`CREATE DATABASE "${databaseName}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  pool = createPool({ url: url.href, max: 4, applicationName: 'notifier-it' });
  bus = createKafkaBus({ brokers, clientId: `notifier-it-${run}`, logger });
  target = await startReceiver((req, res) =>
    res.writeHead(JSON.parse(req.body || '{}').reject ? 400 : 200).end(),
  );
  notifier = await startNotifier(
    loadNotifierConfig({
      LOG_LEVEL: 'error',
      CALLBACK_SECRETS_KEY: secretsKey,
      CALLBACK_ALLOWED_HOSTS: '127.0.0.1',
      CALLBACK_RETRY_BASE: '50ms',
      NOTIFIER_POLL_MS: '50',
      // A group of its own per run: the shared broker keeps callbacks of earlier runs, whose
      // giveUpAt has passed, so this run dead-letters them without calling anyone.
      NOTIFIER_CONSUMER_GROUP: `notifier-it-${run}`,
    }),
    { pool, bus, logger },
  );
  deadLetters = await collectDeadLetters(bus, `notifier-it-dlq-${run}`);
});

afterAll(async () => {
  await deadLetters?.stop();
  await notifier?.stop();
  await target?.close();
  await bus?.close();
  await pool?.end();
  await admin?.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  await admin?.end();
});

/** Short horizons, so callbacks this run leaves on the topic die unattempted in later runs. */
const giveUpAt = () => new Date(Date.now() + 60_000).toISOString();

describe('notifier on Postgres and Kafka', () => {
  it('when a callback is published on callbacks.v1, then it is stored and delivered once', async () => {
    const req = callbackRequest(`${target.url}/dlr?run=${run}`, {
      body: { run },
      giveUpAt: giveUpAt(),
    });
    await publishCallback(bus, req);
    await publishCallback(bus, req);
    await eventually(async () => {
      const { rows } = await pool.query(
        'SELECT "status", "attempts" FROM "notifier"."callback" WHERE "callback_id" = $1',
        [req.callbackId],
      );
      expect(rows[0]).toMatchObject({ status: 'delivered', attempts: 1 });
    }, 60_000);
    const mine = target.received.filter((r) => r.url === `/dlr?run=${run}`);
    expect(mine).toHaveLength(1);
    expect(JSON.parse(mine[0]?.body ?? '')).toEqual({ run });
    // Signed with the account's secret, as stored (sealed) in this database.
    const secrets = createSigningSecretStore({
      pool,
      box: createSecretBox(parseSecretBoxKey(secretsKey)),
    });
    const { secret } = await secrets.current(req.accountId);
    const headers = Object.fromEntries(
      Object.entries(mine[0]?.headers ?? {}).map(([name, value]) => [name, String(value)]),
    );
    expect(new Webhook(secret).verify(mine[0]?.body ?? '', headers)).toEqual({ run });
  });

  it('when the receiver refuses with 400, then the dead letter reaches callbacks.dlq.v1 through the outbox', async () => {
    const req = callbackRequest(target.url, { body: { reject: true }, giveUpAt: giveUpAt() });
    await publishCallback(bus, req);
    await eventually(() => expect(deadLetters.of(req.callbackId)).toHaveLength(1), 60_000);
    expect(deadLetters.of(req.callbackId)[0]).toMatchObject({ attempts: 1, lastError: 'HTTP 400' });
    // The relay marks the row published right after the broker took it.
    await eventually(async () => {
      const { rows } = await pool.query(
        'SELECT count(*)::int AS "pending" FROM "notifier"."outbox_event" WHERE "published_at" IS NULL',
      );
      expect(rows[0]?.pending).toBe(0);
    });
  });
});
