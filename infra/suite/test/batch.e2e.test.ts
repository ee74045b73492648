import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import got, { type Got } from 'got';
import { afterAll, beforeAll, describe, expect, it, onTestFailed, vi } from 'vitest';
import { type SmsPlatform, startSmsProcesses } from './platform.js';

/**
 * Batch SMS in the deployed shape: a process per service on real Postgres and Kafka, the SMSC
 * simulator speaking SMPP, callbacks to a local receiver. Recipients are told apart at the SMSC by
 * destination number (one per recipient), so "sent exactly once" is counted there.
 */
interface Summary {
  batch_id: string;
  status: string;
  total_messages: number;
  submitted_messages: number;
  failed_messages: number;
  pending_messages: number;
  total_parts: number;
}
interface Delta {
  id: string;
  external_message_id: string;
  transaction_id: string;
  phone_number: string;
  message: string;
  submission_status: string;
}
interface Submit {
  destinationAddr: string;
  shortMessage?: string;
}
interface Received {
  url: string;
  body: { event_type: string; submitted_messages_delta?: Delta[]; batch_status_summary: Summary };
}

/** Messages per second the account may send: spreads expansion over several seconds. */
const ACCOUNT_TPS = 25;
const account = { name: `batche2e${Date.now().toString(36)}`, password: 'e2e-password-123' };

let platform: SmsPlatform;
let api: Got;
let smsc: Got;
let apiKey: string;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];

const say = (line: string) => process.stderr.write(`[batch-e2e] ${line}\n`);

/** Distinct (valid Swedish mobile) destination per recipient: +4670<test><6 digits>. */
const destination = (test: number, i: number) => `+4670${test}${String(i).padStart(6, '0')}`;

async function submitsOf(test: number): Promise<Submit[]> {
  const all = (await smsc.get<Submit[]>('submits')).body;
  return all.filter((s) => s.destinationAddr.startsWith(`4670${test}`));
}

function countBy<T>(items: T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

async function token(): Promise<string> {
  const res = await got.post<{ access_token: string }>(`${platform.gatewayUrl}/v1/oauth/token`, {
    json: { client_id: account.name, client_secret: apiKey, grant_type: 'client_credentials' },
    responseType: 'json',
  });
  return res.body.access_token;
}

async function createBatch(batch: Record<string, unknown>) {
  return api.post<{ id: string }>('v1/batches', {
    body: gzipSync(JSON.stringify({ batch })),
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
  });
}

const poll = async (id: string) =>
  (await api.get<{ batch_status_summary: Summary }>(`v1/batches/${id}/poll`)).body
    .batch_status_summary;

async function until(id: string, done: (s: Summary) => boolean, timeout = 90_000) {
  return vi.waitFor(
    async () => {
      const summary = await poll(id);
      if (!done(summary)) throw new Error(`batch ${id}: ${JSON.stringify(summary)}`);
      return summary;
    },
    { timeout, interval: 250 },
  );
}

/** Pages through poll_with_delta from 0 with `size` items per page; answers every item seen. */
async function allDeltas(id: string, size: number): Promise<Delta[]> {
  const items: Delta[] = [];
  let sequence = 0;
  for (let page = 0; page < 1000; page++) {
    const res = await api.get<{
      next_sequence: number;
      has_more: boolean;
      submitted_messages_delta: Delta[];
    }>(`v1/batches/${id}/poll_with_delta`, {
      searchParams: { last_sequence_id: sequence, max_delta_size: size },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body.submitted_messages_delta.length).toBeLessThanOrEqual(size);
    items.push(...res.body.submitted_messages_delta);
    sequence = res.body.next_sequence;
    if (!res.body.has_more) return items;
  }
  throw new Error('poll_with_delta never ended');
}

function dumpLogsOnFailure() {
  onTestFailed(() => {
    process.stderr.write(`--- process logs (tail) ---\n${platform?.logTail(12_000)}\n`);
  });
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ url: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString()) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/batch-events`;

  platform = await startSmsProcesses({
    smscEnv: { RECEIPT_DELAY_MS: '100', LOG_LEVEL: 'warn' },
    batchEnv: { BATCH_WORKER_INTERVAL: '100ms', BATCH_PROGRESS_INTERVAL: '500ms' },
  });
  smsc = got.extend({ prefixUrl: platform.smscControlUrl, responseType: 'json' });
  const created = await got.post<{ apiKey: string }>(`${platform.adminUrl}/internal/v1/accounts`, {
    headers: { authorization: `Bearer ${platform.adminToken}` },
    json: {
      name: account.name,
      password: account.password,
      createApiKey: true,
      permissions: ['sms', 'batch_sms'],
      rateLimit: { perSecond: 1000, burst: 1000 },
      smsThroughputPerSecond: ACCOUNT_TPS,
    },
    responseType: 'json',
  });
  apiKey = created.body.apiKey;
  // The account reaches the batch service over accounts.v1: retry the token until it does.
  const bearer = await vi.waitFor(token, { timeout: 60_000, interval: 500 });
  api = got.extend({
    prefixUrl: platform.gatewayUrl,
    headers: { authorization: `Bearer ${bearer}` },
    throwHttpErrors: false,
    retry: { limit: 0 },
    responseType: 'json',
    timeout: { request: 15_000 },
  });
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
}, 120_000);

describe('batch SMS end to end, a process per service', () => {
  it('when a templated batch is sent, then good recipients reach the SMSC once, bad ones fail alone, deltas and callbacks cover each message once', async () => {
    dumpLogsOnFailure();
    const recipients = Array.from({ length: 30 }, (_, i) => ({
      phone_number: destination(1, i),
      external_message_id: `ext-${i}`,
      field_message: { name: `Kund ${i}`, code: 1000 + i },
    }));
    recipients.push({
      phone_number: destination(1, 30),
      external_message_id: 'ext-30',
      field_message: { name: 'No code' },
    } as never);
    recipients.push({
      phone_number: '12',
      external_message_id: 'ext-31',
      field_message: { name: 'x', code: 1 },
    });
    const res = await createBatch({
      sms_config: { sender_id: 'ACME', message_template: 'Hej {{name}}, din kod är {{code}}' },
      recipients,
      external_batch_id: 'e2e-1',
      notification_settings: {
        batch_event_callback_url: receiverUrl,
        batch_event_callback_token: 'secret-token-1',
      },
    });
    expect(res.statusCode).toBe(202);
    expect(res.headers.location).toBe(`/v1/batches/${res.body.id}`);
    const id = res.body.id;

    const summary = await until(id, (s) => s.status === 'completed');
    expect(summary).toMatchObject({
      total_messages: 32,
      submitted_messages: 30,
      failed_messages: 2,
      pending_messages: 0,
      total_parts: 30,
    });

    const submits = await submitsOf(1);
    const perDestination = countBy(submits, (s) => s.destinationAddr);
    expect(perDestination.size).toBe(30);
    expect([...perDestination.values()].every((n) => n === 1)).toBe(true);

    const deltas = await allDeltas(id, 7);
    expect(deltas).toHaveLength(32);
    expect(new Set(deltas.map((d) => d.id)).size).toBe(32);
    const first = deltas.find((d) => d.external_message_id === 'ext-3');
    expect(first).toMatchObject({
      phone_number: destination(1, 3),
      message: 'Hej Kund 3, din kod är 1003',
      submission_status: 'SUBMITTED',
    });
    expect(
      deltas
        .filter((d) => d.submission_status === 'FAILED')
        .map((d) => d.external_message_id)
        .sort(),
    ).toEqual(['ext-30', 'ext-31']);

    // Callbacks: ?token= on each, created first, completed last, each message in one update.
    const events = await vi.waitFor(
      () => {
        const mine = received.filter((r) => r.body.batch_status_summary.batch_id === id);
        if (mine.at(-1)?.body.event_type !== 'batch.submission_completed')
          throw new Error('not yet');
        return mine;
      },
      { timeout: 30_000, interval: 200 },
    );
    expect(
      events.every(
        (e) => new URL(e.url, 'http://x').searchParams.get('token') === 'secret-token-1',
      ),
    ).toBe(true);
    const types = events.map((e) => e.body.event_type);
    expect(types[0]).toBe('batch.created');
    expect(types).toContain('batch.processing_started');
    const progressed = events
      .flatMap((e) => e.body.submitted_messages_delta ?? [])
      .map((d) => d.id);
    expect(progressed.sort()).toEqual(deltas.map((d) => d.id).sort());
  }, 180_000);

  it('when a batch is scheduled, then it waits, cancel makes it canceled once, and a finished batch cannot be canceled', async () => {
    dumpLogsOnFailure();
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await createBatch({
      sms_config: { sender_id: 'ACME', message_template: 'later' },
      recipients: [{ phone_number: destination(2, 0) }],
      schedule_at: later,
    });
    expect(scheduled.statusCode).toBe(202);
    expect((await poll(scheduled.body.id)).status).toBe('scheduled');
    await new Promise((r) => setTimeout(r, 1_100)); // one create per second per account
    const cancel = await api.post<{ batch_status_summary: Summary }>(
      `v1/batches/${scheduled.body.id}/cancel`,
    );
    expect(cancel.statusCode).toBe(200);
    expect(cancel.body.batch_status_summary.status).toBe('canceled');
    expect((await api.post(`v1/batches/${scheduled.body.id}/cancel`)).statusCode).toBe(409);

    const now = await createBatch({
      sms_config: { sender_id: 'ACME', message_template: 'now' },
      recipients: [{ phone_number: destination(2, 1) }],
      dry_run: true,
    });
    expect(now.statusCode).toBe(202);
    await until(now.body.id, (s) => s.status === 'completed');
    expect((await api.post(`v1/batches/${now.body.id}/cancel`)).statusCode).toBe(409);
    expect(await submitsOf(2)).toEqual([]);
  }, 120_000);

  it('when the batch service is killed mid-expansion and again mid-submission, then every recipient reaches the SMSC exactly once', async () => {
    dumpLogsOnFailure();
    const total = 150;
    await new Promise((r) => setTimeout(r, 1_100));
    const res = await createBatch({
      sms_config: { sender_id: 'ACME', message_template: 'restart test {{n}}' },
      recipients: Array.from({ length: total }, (_, i) => ({
        phone_number: destination(3, i),
        field_message: { n: i },
      })),
    });
    expect(res.statusCode).toBe(202);
    const id = res.body.id;

    // Paced at 25/s, 150 recipients take ~6 s to expand: kill while a part is out.
    await until(id, (s) => s.submitted_messages > 10, 60_000);
    await platform.batch.kill('SIGKILL');
    say(`killed mid-expansion with ${(await submitsOf(3)).length} at the SMSC`);
    await platform.batch.start();

    await until(id, (s) => s.submitted_messages > total / 2, 60_000);
    await platform.batch.kill('SIGKILL');
    await platform.batch.start();

    const summary = await until(id, (s) => s.status === 'completed', 120_000);
    expect(summary).toMatchObject({
      total_messages: total,
      submitted_messages: total,
      failed_messages: 0,
    });
    const perDestination = countBy(await submitsOf(3), (s) => s.destinationAddr);
    expect(perDestination.size).toBe(total);
    expect([...perDestination.entries()].filter(([, n]) => n > 1)).toEqual([]);
    const deltas = await allDeltas(id, 2000);
    expect(new Set(deltas.map((d) => d.id)).size).toBe(total);
  }, 240_000);
});
