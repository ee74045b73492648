import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip, gzipSync } from 'node:zlib';
import { createJwtService } from '@msg/auth';
import type { AccountState } from '@msg/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchEvent } from '../src/batches/batch-events.js';
import { batchBody, gzipJson, startTestBatch, TEST_KEY, type TestBatchService } from './support.js';

// Lowered limits so the size rules are cheap to reach: 1 MB compressed, 4 MB inflated.
const MAX_BODY = 1024 * 1024;
const MAX_INFLATED = 4 * 1024 * 1024;

let svc: TestBatchService;
let server: http.Server;
let port: number;

beforeAll(async () => {
  svc = await startTestBatch({
    env: { BATCH_MAX_BODY_BYTES: String(MAX_BODY), BATCH_MAX_INFLATED_BYTES: String(MAX_INFLATED) },
  });
  server = http.createServer(svc.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await svc?.stop();
});

/** Each create needs its own account: one create per second per account. */
async function freshToken(overrides = {}) {
  return (await svc.accountWithToken(overrides)).token;
}

async function messageCount(): Promise<number> {
  const { rows } = await svc.pool.query<{ n: string }>(
    'SELECT count(*)::text AS n FROM batch.message',
  );
  return Number(rows[0]?.n);
}

async function batchCount(accountId: string): Promise<number> {
  const { rows } = await svc.pool.query<{ n: string }>(
    'SELECT count(*)::text AS n FROM batch.batch WHERE account_id = $1',
    [accountId],
  );
  return Number(rows[0]?.n);
}

/** The callback request of an outbox row (see outboxFor). */
function callbackRequest(row: { value: { payload: unknown } }) {
  return row.value.payload as { url: string; query?: Record<string, string>; body: BatchEvent };
}

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Whether the server closed the connection (it did not read the rest). */
  closed: boolean;
}

/**
 * A POST /v1/batches on a raw connection: `write` gets a function to send bytes and runs until
 * the answer arrives (or it returns); the request is never ended unless `write` ends it.
 */
function rawCreate(
  token: string,
  headers: Record<string, string | number>,
  write: (send: (bytes: Buffer) => boolean, answered: () => boolean) => Promise<void>,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/v1/batches',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        'Content-Encoding': 'gzip',
        ...headers,
      },
    });
    req.on('error', () => {
      // EPIPE / ECONNRESET once the server has answered and closed: expected.
    });
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const socket = res.socket;
        const done = (closed: boolean) =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
            closed,
          });
        if (!socket || socket.destroyed) done(true);
        else {
          const timer = setTimeout(() => done(false), 2_000);
          socket.once('close', () => {
            clearTimeout(timer);
            done(true);
          });
        }
      });
    });
    req.flushHeaders();
    write(
      (bytes) => req.write(bytes),
      () => answered,
    ).catch(reject);
  });
}

describe('createBatch: accepted', () => {
  it('when the body is valid, then 202 with id and Location, and every recipient is stored in order with its fields', async () => {
    const { account, token } = await svc.accountWithToken();
    const body = batchBody(3, { external_batch_id: 'ext-batch-1' });
    (body.batch.recipients as Record<string, unknown>[])[1] = { phone_number: '0046701234567' };
    const res = await svc.createBatch(token, body);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(res.headers.location).toBe(`/v1/batches/${res.body.id}`);

    const { rows } = await svc.pool.query(
      `SELECT seq, phone_number, external_message_id, fields FROM batch.message
        WHERE batch_id = $1 ORDER BY seq`,
      [res.body.id],
    );
    expect(rows).toEqual([
      {
        seq: 1,
        phone_number: '+46700000000',
        external_message_id: 'ext-0',
        fields: { name: 'N0' },
      },
      {
        seq: 2,
        phone_number: '0046701234567',
        external_message_id: null,
        fields: null,
      },
      {
        seq: 3,
        phone_number: '+46700000002',
        external_message_id: 'ext-2',
        fields: { name: 'N2' },
      },
    ]);
    const batch = await svc.pool.query('SELECT * FROM batch.batch WHERE id = $1', [res.body.id]);
    expect(batch.rows[0]).toMatchObject({
      account_id: account.id,
      external_batch_id: 'ext-batch-1',
      sender_id: 'Acme',
      message_template: 'Hello {{name}}',
      validity_minutes: null,
      delivery_report: false,
      dry_run: false,
      callback_url: null,
      callback_token: null,
      scheduled_at: null,
      total_messages: 3,
    });
    // Processing may already have started it (the workers run): created, or later.
    expect(['created', 'processing', 'completed']).toContain(batch.rows[0]?.status);
  });

  it('when the path has a trailing slash, then it is the same create: 202 at once, not an upload waited on forever', async () => {
    const { token } = await svc.accountWithToken();
    const res = await request(svc.app)
      .post('/v1/batches/')
      .timeout(20_000)
      .set({
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        'Content-Encoding': 'gzip',
      })
      .serialize((data: unknown) => data as string)
      .send(gzipJson(batchBody(2)));
    expect(res.status).toBe(202);
    const { rows } = await svc.pool.query('SELECT total_messages FROM batch.batch WHERE id = $1', [
      res.body.id,
    ]);
    expect(rows).toEqual([{ total_messages: 2 }]);
  });

  it('when schedule_at is ahead without a zone, then it is UTC, the batch is scheduled and batch.created + batch.scheduled are queued to the callback with the token', async () => {
    const { token } = await svc.accountWithToken({ senderIds: ['+46701234567'] });
    const at = new Date(Date.now() + 2 * 86_400_000);
    at.setUTCMilliseconds(0);
    const res = await svc.createBatch(
      token,
      batchBody(2, {
        sms_config: {
          sender_id: '+46701234567',
          message_template: 'Hi',
          validity_period_minutes: 60,
          delivery_report: true,
        },
        schedule_at: at.toISOString().slice(0, 19),
        dry_run: true,
        notification_settings: {
          batch_event_callback_url: 'https://hooks.example.com/batch',
          batch_event_callback_token: 't'.repeat(64),
        },
      }),
    );
    expect(res.status).toBe(202);
    const { rows } = await svc.pool.query('SELECT * FROM batch.batch WHERE id = $1', [res.body.id]);
    expect(rows[0]).toMatchObject({
      status: 'scheduled',
      scheduled_at: at,
      sender_id: '+46701234567',
      validity_minutes: 60,
      delivery_report: true,
      dry_run: true,
      callback_url: 'https://hooks.example.com/batch',
      callback_token: 't'.repeat(64),
      total_messages: 2,
    });
    const events = await svc.outboxFor(res.body.id);
    expect(events.map((e) => e.topic)).toEqual(['batch.events.v1', 'batch.events.v1']);
    const payloads = events.map(callbackRequest);
    expect(payloads.map((p) => p.body.event_type)).toEqual(['batch.created', 'batch.scheduled']);
    expect(payloads[0]).toMatchObject({
      url: 'https://hooks.example.com/batch',
      query: { token: 't'.repeat(64) },
      body: {
        batch_status_summary: {
          batch_id: res.body.id,
          status: 'scheduled',
          total_messages: 2,
          pending_messages: 2,
          scheduled_at: at.toISOString(),
        },
      },
    });
  });

  it('when schedule_at has a zone offset, then it is converted; in the past, the batch starts at once (created) with only batch.created', async () => {
    const { token } = await svc.accountWithToken();
    const res = await svc.createBatch(
      token,
      batchBody(1, {
        schedule_at: '2020-01-01T10:00:00+01:00',
        notification_settings: { batch_event_callback_url: 'https://callbacks.example.com/cb' },
      }),
    );
    expect(res.status).toBe(202);
    const { rows } = await svc.pool.query('SELECT * FROM batch.batch WHERE id = $1', [res.body.id]);
    expect(rows[0]).toMatchObject({
      scheduled_at: new Date('2020-01-01T09:00:00Z'),
      callback_token: null,
    });
    // Not scheduled: created, and the workers may already have started it.
    expect(rows[0]?.status).not.toBe('scheduled');
    const events = await svc.outboxFor(res.body.id);
    const payloads = events.map(callbackRequest);
    const types = payloads.map((p) => p.body.event_type);
    expect(types[0]).toBe('batch.created');
    expect(payloads[0]?.body.batch_status_summary.status).toBe('created');
    expect(types).not.toContain('batch.scheduled');
    expect(payloads[0]?.query).toBeUndefined();
  });

  it.each([
    ['0050-06-15T12:30:00', '0050-06-15T12:30:00.000Z'],
    ['0099-12-31T23:59:59Z', '0099-12-31T23:59:59.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
  ])(
    'when schedule_at is in year 0001-0099 (%s), then it is stored as written, not as 19xx',
    async (text, iso) => {
      const { token } = await svc.accountWithToken();
      const res = await svc.createBatch(token, batchBody(1, { schedule_at: text }));
      expect(res.status).toBe(202);
      const { rows } = await svc.pool.query('SELECT scheduled_at FROM batch.batch WHERE id = $1', [
        res.body.id,
      ]);
      expect(rows[0]?.scheduled_at).toEqual(new Date(iso));
    },
  );

  it('when the batch has 10,000 recipients, then all are stored with seq 1..10000', async () => {
    const { token } = await svc.accountWithToken();
    const res = await svc.createBatch(token, batchBody(10_000));
    expect(res.status).toBe(202);
    expect(await svc.storedRecipients(res.body.id)).toEqual({
      n: '10000',
      min: 1,
      max: 10000,
      ok: '10000',
      total: 10_000,
    });
  });
});

describe('createBatch: who may create, and how often', () => {
  it('when there is no token or it expired, then 401', async () => {
    const account = await svc.publishAccount(svc.account());
    const none = await request(svc.app)
      .post('/v1/batches')
      .set({ 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' })
      .send('x');
    expect(none.status).toBe(401);
    const expired = createJwtService({
      issuer: 'messaging-platform',
      audience: 'batch-sms',
      keys: [TEST_KEY],
      activeKid: TEST_KEY.kid,
      ttlSeconds: 60,
      now: () => Date.now() - 3_600_000,
    }).sign(account).token;
    const res = await svc.createBatch(expired, batchBody(1));
    expect(res.status).toBe(401);
    expect(await batchCount(account.id)).toBe(0);
  });

  it.each<[string, Partial<AccountState>]>([
    ['disabled', { status: 'disabled' }],
    ['without batch_sms', { permissions: ['sms'] }],
    ['calling from outside its IP allow-list', { ipAllowList: ['10.0.0.0/8'] }],
  ])('when the account is %s, then 403 and nothing is stored', async (_, overrides) => {
    const account = await svc.publishAccount(svc.account());
    const token = await svc.tokenFor(account);
    await svc.publishAccount({ ...account, ...overrides, version: account.version + 1 });
    const res = await svc.createBatch(token, batchBody(1));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
    expect(await batchCount(account.id)).toBe(0);
  });

  it('when a second create comes within the same second, then 429 with Retry-After', async () => {
    const { account, token } = await svc.accountWithToken();
    const first = await svc.createBatch(token, batchBody(1));
    const second = await svc.createBatch(token, batchBody(1));
    expect(first.status).toBe(202);
    expect(second.status).toBe(429);
    expect(second.body.code).toBe('RATE_LIMITED');
    expect(Number(second.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await batchCount(account.id)).toBe(1);
  });
});

describe('createBatch: whose sender id (issue 23)', () => {
  const SENDER_LOC = ['body', 'batch', 'sms_config', 'sender_id'];
  /** A create by a new account (one create per second each) with `sender_id`. */
  const create = async (senderId: string, overrides: Partial<AccountState> = {}) => {
    const { account, token } = await svc.accountWithToken(overrides);
    const res = await svc.createBatch(
      token,
      batchBody(2, { sms_config: { sender_id: senderId, message_template: 'Hi' } }),
    );
    return { account, res };
  };
  const refused = async (senderId: string, type: string, overrides: Partial<AccountState> = {}) => {
    const { account, res } = await create(senderId, overrides);
    expect(res.status, senderId).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details).toEqual([{ loc: SENDER_LOC, type, msg: expect.any(String) }]);
    expect(await batchCount(account.id)).toBe(0);
  };

  it('when an account with registered sender id ACME creates a batch from BANKID, then 400 not_registered naming sender_id and nothing is stored', async () => {
    await refused('BANKID', 'not_registered', { senderIds: ['ACME'] });
  });

  it('when it creates one from ACME, in any case, then 202', async () => {
    expect((await create('ACME', { senderIds: ['ACME'] })).res.status).toBe(202);
    expect((await create('acme', { senderIds: ['ACME'] })).res.status).toBe(202);
  });

  it('when the sender is a number or shortcode the account has not registered, then 400 not_registered', async () => {
    await refused('+46701234567', 'not_registered');
    await refused('72000', 'not_registered', { senderIds: ['ACME', '72001'] });
  });

  it('when the operator protects a name, then an account it is not registered to is refused it and its look-alikes, and one it is registered to is not', async () => {
    await svc.publishProtectedSenders(['BankID']);
    await refused('BankID', 'protected');
    await refused('B4NK ID', 'protected');
    expect((await create('BankID', { senderIds: ['BankID'] })).res.status).toBe(202);
    expect((await create('Acme')).res.status).toBe(202);
  });
});

describe('createBatch: the body as bytes', () => {
  it.each([
    ['no Content-Encoding', { 'Content-Encoding': '' }],
    ['Content-Encoding: deflate', { 'Content-Encoding': 'deflate' }],
  ])(
    'when it is sent with %s, then 415 naming Content-Encoding gzip, and the create of this second is not used up',
    async (_, headers) => {
      const { account, token } = await svc.accountWithToken();
      const res = await svc.createBatch(token, batchBody(1), headers);
      expect(res.status).toBe(415);
      expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(JSON.stringify(res.body).toLowerCase()).toContain('content-encoding');
      expect(await batchCount(account.id)).toBe(0);
      expect((await svc.createBatch(token, batchBody(1))).status).toBe(202);
    },
  );

  it('when Content-Type is not JSON, then 415', async () => {
    const { token } = await svc.accountWithToken();
    const res = await svc.createBatch(token, batchBody(1), { 'Content-Type': 'text/plain' });
    expect(res.status).toBe(415);
  });

  it('when Content-Length is over the limit, then 413 at once, without reading the body, and the connection is closed', async () => {
    const { account, token } = await svc.accountWithToken();
    const answer = await rawCreate(token, { 'Content-Length': MAX_BODY + 1 }, async (send) => {
      send(randomBytes(1024)); // the rest never comes: only an answer that reads nothing ends this
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).code).toBe('PAYLOAD_TOO_LARGE');
    expect(answer.closed).toBe(true);
    expect(await batchCount(account.id)).toBe(0);
  });

  it('when a chunked body grows over the limit, then 413 while streaming, the rest is not read and nothing is stored', async () => {
    const { account, token } = await svc.accountWithToken();
    const before = await messageCount();
    // A valid gzip JSON prefix with many recipients, then more: the limit is passed mid-stream.
    const big = gzipJson(
      batchBody(0, {
        recipients: Array.from({ length: 40_000 }, (_, i) => ({
          phone_number: `+4670${i}`,
          field_message: { noise: randomBytes(30).toString('base64') },
        })),
      }),
    );
    expect(big.length).toBeGreaterThan(MAX_BODY);
    let sent = 0;
    const answer = await rawCreate(token, {}, async (send, answered) => {
      while (!answered() && sent < big.length) {
        send(big.subarray(sent, sent + 16_384));
        sent += 16_384;
        await new Promise((r) => setTimeout(r, 1));
      }
    });
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(answer.closed).toBe(true);
    expect(await batchCount(account.id)).toBe(0);
    expect(await messageCount()).toBe(before);
  });

  it('when the bytes are not gzip, or the gzip stream is cut short, then 400 "body is not valid gzip"', async () => {
    const { account, token } = await svc.accountWithToken();
    const notGzip = await svc.createBatch(token, Buffer.from(JSON.stringify(batchBody(1))));
    expect(notGzip.status).toBe(400);
    expect(notGzip.body).toMatchObject({
      code: 'MALFORMED_REQUEST',
      message: 'body is not valid gzip',
    });
    const token2 = await freshToken();
    const whole = gzipJson(batchBody(50));
    const cut = await svc.createBatch(token2, whole.subarray(0, whole.length - 20));
    expect(cut.status).toBe(400);
    expect(cut.body.message).toBe('body is not valid gzip');
    expect(await batchCount(account.id)).toBe(0);
  });

  it('when a small gzip inflates past the inflated limit (a decompression bomb), then 400 and nothing stored', async () => {
    const { account, token } = await svc.accountWithToken();
    const before = await messageCount();
    const json = `{"batch":${' '.repeat(MAX_INFLATED + 1)}{}}`;
    const bomb = gzipSync(Buffer.from(json), { level: 9 });
    expect(bomb.length).toBeLessThan(MAX_BODY);
    const res = await svc.createBatch(token, bomb);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      {
        loc: ['body'],
        type: 'maxInflatedBytes',
        msg: expect.stringContaining('decompression bomb'),
      },
    ]);
    expect(await batchCount(account.id)).toBe(0);
    expect(await messageCount()).toBe(before);
  });

  it('when a gzip inflates far more than its size but stays under the inflated limit, then 400 for the ratio after reading only its start', async () => {
    const { account, token } = await svc.accountWithToken();
    const before = await messageCount();
    // About 1000:1 (runs of spaces), 3.5 MB inflated: under the 4 MB total, over 200:1 + 1 MiB.
    const bomb = gzipSync(Buffer.from(`{"batch":${' '.repeat(3_500_000)}{}}`), { level: 9 });
    // Its first 60% (about 2 MB inflated) is sent, then the test waits for the answer before the rest.
    const head = Math.floor(bomb.length * 0.6);
    let sent = 0;
    const answer = await rawCreate(token, {}, async (send, answered) => {
      send(bomb.subarray(0, head));
      sent = head;
      for (let waited = 0; !answered() && waited < 10_000; waited += 50) {
        await new Promise((r) => setTimeout(r, 50));
      }
      if (!answered()) {
        send(bomb.subarray(head));
        sent = bomb.length;
      }
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [
        {
          loc: ['body'],
          type: 'maxInflatedBytes',
          msg: 'inflates more than 200 times its compressed size (decompression bomb)',
        },
      ],
    });
    expect(sent).toBeLessThan(bomb.length);
    expect(await batchCount(account.id)).toBe(0);
    expect(await messageCount()).toBe(before);
  });

  it("when the JSON is malformed, then 400 MALFORMED_REQUEST in our words (the parser's words and position stay in the log)", async () => {
    const { token } = await svc.accountWithToken();
    const res = await svc.createBatch(
      token,
      gzipSync('{"batch":{"recipients":[{"phone_number":"+4670"},}]}}'),
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('MALFORMED_REQUEST');
    expect(res.body.message).toBe('body is not valid JSON');
    const truncated = await svc.createBatch(await freshToken(), gzipSync('{"batch":{"recip'));
    expect(truncated.status).toBe(400);
    expect(truncated.body.code).toBe('MALFORMED_REQUEST');
  });

  it('when a recipient field holds an escaped lone surrogate or NUL, then 400 names it and nothing is stored (no silent U+FFFD)', async () => {
    const { account, token } = await svc.accountWithToken();
    const before = await messageCount();
    const json = JSON.stringify(batchBody(2)).replace('"N1"', '"\\ud800"');
    const res = await svc.createBatch(token, gzipSync(json));
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      {
        loc: ['body', 'batch', 'recipients', '1', 'field_message', 'name'],
        type: 'text',
        msg: expect.stringContaining('lone surrogate'),
      },
    ]);
    const nul = JSON.stringify(batchBody(1)).replace('"Acme"', '"Ac\\u0000me"');
    const withNul = await svc.createBatch(await freshToken(), gzipSync(nul));
    expect(withNul.status).toBe(400);
    expect(withNul.body.details[0].loc).toEqual(['body', 'batch', 'sms_config', 'sender_id']);
    expect(await batchCount(account.id)).toBe(0);
    expect(await messageCount()).toBe(before);
  });

  it('when any object names a key twice, header or recipient, then 400 names the key: one rule for every JSON body', async () => {
    const inRecipient = JSON.stringify(batchBody(2)).replace(
      '"external_message_id":"ext-1"',
      '"external_message_id":"ext-1","external_message_id":"ext-x"',
    );
    const res = await svc.createBatch(await freshToken(), gzipSync(inRecipient));
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      {
        loc: ['body', 'batch', 'recipients', '1', 'external_message_id'],
        type: 'duplicate',
        msg: 'appears more than once',
      },
    ]);
    const inConfig = JSON.stringify(batchBody(1)).replace(
      '"sender_id":"Acme"',
      '"sender_id":"Acme","sender_id":"Evil"',
    );
    const nested = await svc.createBatch(await freshToken(), gzipSync(inConfig));
    expect(nested.status).toBe(400);
    expect(nested.body.details[0].loc).toEqual(['body', 'batch', 'sms_config', 'sender_id']);
  });

  it('when the inflated bytes are not UTF-8, then 400 MALFORMED_REQUEST', async () => {
    const json = Buffer.from(JSON.stringify(batchBody(1)).replace('"N0"', '"N\u00e9"'));
    const latin1 = Buffer.from(json.toString('utf8'), 'latin1');
    const res = await svc.createBatch(await freshToken(), gzipSync(latin1));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'MALFORMED_REQUEST', message: 'body is not valid UTF-8' });
  });

  it('when the client goes away in the middle of the upload, then nothing is stored', async () => {
    const { account, token } = await svc.accountWithToken();
    const before = await messageCount();
    const big = gzipJson(batchBody(20_000));
    await new Promise<void>((resolve) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/batches',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          'Content-Encoding': 'gzip',
          'Content-Length': big.length,
        },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.write(big.subarray(0, Math.floor(big.length / 2)));
      setTimeout(() => req.destroy(), 300);
    });
    // Give the server time to roll back the aborted upload's transaction.
    await new Promise((r) => setTimeout(r, 200));
    expect(await messageCount()).toBe(before);
    expect(await batchCount(account.id)).toBe(0);
  });
});

describe('createBatch: recipients', () => {
  it('when there are more recipients than the account allows, then 400 naming the rule, nothing stored', async () => {
    const { account, token } = await svc.accountWithToken({ batchMaxRecipients: 5 });
    const ok = await svc.createBatch(token, batchBody(5));
    expect(ok.status).toBe(202);
    await new Promise((r) => setTimeout(r, 1_050));
    const before = await messageCount();
    const res = await svc.createBatch(token, batchBody(6));
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      {
        loc: ['body', 'batch', 'recipients'],
        type: 'maxItems',
        msg: 'must hold at most 5 recipients (the limit of this account)',
      },
    ]);
    expect(await batchCount(account.id)).toBe(1);
    expect(await messageCount()).toBe(before);
  });

  it('when the recipients go past the limit, then 400 naming the limit as soon as the first one too many arrives, without reading the rest, nothing stored', async () => {
    const { account, token } = await svc.accountWithToken({ batchMaxRecipients: 5 });
    const before = await messageCount();
    // Six recipients, then a long stream of more, sent until the server answers.
    const gzip = createGzip();
    let more = 0;
    const answer = await rawCreate(token, {}, async (send, answered) => {
      gzip.on('data', (chunk: Buffer) => send(chunk));
      const head = JSON.stringify(batchBody(6)).replace(/\]\}\}$/, '');
      gzip.write(head);
      gzip.flush();
      for (; more < 10_000 && !answered(); more += 1) {
        gzip.write(`,{"phone_number":"+4670${String(more).padStart(7, '0')}"}`);
        gzip.flush();
        await new Promise((r) => setTimeout(r, 2));
      }
    });
    gzip.destroy();
    expect(more).toBeLessThan(10_000);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).details).toEqual([
      {
        loc: ['body', 'batch', 'recipients'],
        type: 'maxItems',
        msg: 'must hold at most 5 recipients (the limit of this account)',
      },
    ]);
    expect(await batchCount(account.id)).toBe(0);
    expect(await messageCount()).toBe(before);
  });

  const recipientCases: [string, unknown, string[], string][] = [
    ['not an object', 'x', [], 'type'],
    ['without phone_number', { external_message_id: 'a' }, ['phone_number'], 'missing'],
    ['with a numeric phone_number', { phone_number: 4670 }, ['phone_number'], 'type'],
    ['with an empty phone_number', { phone_number: '' }, ['phone_number'], 'minLength'],
    [
      'with a 33-character phone_number',
      { phone_number: '1'.repeat(33) },
      ['phone_number'],
      'maxLength',
    ],
    [
      'with a 129-character external_message_id',
      { phone_number: '+4670', external_message_id: 'e'.repeat(129) },
      ['external_message_id'],
      'maxLength',
    ],
    [
      'with a numeric external_message_id',
      { phone_number: '+4670', external_message_id: 7 },
      ['external_message_id'],
      'type',
    ],
    [
      'with field_message an array',
      { phone_number: '+4670', field_message: [] },
      ['field_message'],
      'type',
    ],
    [
      'with a field value that is an object',
      { phone_number: '+4670', field_message: { a: 'x', deep: { b: 1 } } },
      ['field_message', 'deep'],
      'type',
    ],
    [
      'with a field value that is null',
      { phone_number: '+4670', field_message: { a: null } },
      ['field_message', 'a'],
      'type',
    ],
    [
      'with an unknown member',
      { phone_number: '+4670', name: 'x' },
      ['name'],
      'additionalProperties',
    ],
  ];

  it.each(recipientCases)(
    'when recipient 17 is %s, then 400 naming it',
    async (_, entry, path, type) => {
      const { account, token } = await svc.accountWithToken();
      const before = await messageCount();
      const body = batchBody(20);
      (body.batch.recipients as unknown[])[17] = entry;
      const res = await svc.createBatch(token, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details).toEqual([
        { loc: ['body', 'batch', 'recipients', '17', ...path], type, msg: expect.any(String) },
      ]);
      expect(res.body.message).toContain(['body', 'batch', 'recipients', '17', ...path].join('.'));
      expect(await batchCount(account.id)).toBe(0);
      expect(await messageCount()).toBe(before);
    },
  );

  it('when field values are strings, numbers and booleans, then they are kept as given', async () => {
    const { token } = await svc.accountWithToken();
    const res = await svc.createBatch(
      token,
      batchBody(0, {
        recipients: [
          {
            phone_number: '+4670',
            field_message: { s: 'a\tb\\c\n"d"', n: 1.5, b: false, u: 'å😀' },
          },
        ],
      }),
    );
    expect(res.status).toBe(202);
    const { rows } = await svc.pool.query('SELECT fields FROM batch.message WHERE batch_id = $1', [
      res.body.id,
    ]);
    expect(rows[0]?.fields).toEqual({ s: 'a\tb\\c\n"d"', n: 1.5, b: false, u: 'å😀' });
  });
});

describe('createBatch: the batch members', () => {
  const later = (ms: number) => new Date(Date.now() + ms).toISOString();
  const cases: [string, Record<string, unknown> | unknown, string[], string][] = [
    ['sms_config missing', { sms_config: undefined }, ['sms_config'], 'missing'],
    ['sms_config not an object', { sms_config: 'x' }, ['sms_config'], 'type'],
    [
      'sender_id missing',
      { sms_config: { message_template: 'x' } },
      ['sms_config', 'sender_id'],
      'missing',
    ],
    [
      'sender_id alphanumeric over 11',
      { sms_config: { sender_id: 'AcmeCorpSweden', message_template: 'x' } },
      ['sms_config', 'sender_id'],
      'alphanumeric_too_long',
    ],
    [
      'sender_id + but not E.164',
      { sms_config: { sender_id: '+0123', message_template: 'x' } },
      ['sms_config', 'sender_id'],
      'international_not_e164',
    ],
    [
      'sender_id a 2-digit shortcode',
      { sms_config: { sender_id: '12', message_template: 'x' } },
      ['sms_config', 'sender_id'],
      'shortcode_too_short',
    ],
    [
      'sender_id over 16 characters',
      { sms_config: { sender_id: '+'.padEnd(17, '1'), message_template: 'x' } },
      ['sms_config', 'sender_id'],
      'maxLength',
    ],
    [
      'message_template empty',
      { sms_config: { sender_id: 'Acme', message_template: '' } },
      ['sms_config', 'message_template'],
      'minLength',
    ],
    [
      'message_template over 10000',
      { sms_config: { sender_id: 'Acme', message_template: 'x'.repeat(10_001) } },
      ['sms_config', 'message_template'],
      'maxLength',
    ],
    [
      'validity_period_minutes 0',
      { sms_config: { sender_id: 'Acme', message_template: 'x', validity_period_minutes: 0 } },
      ['sms_config', 'validity_period_minutes'],
      'minimum',
    ],
    [
      'validity_period_minutes 10081',
      { sms_config: { sender_id: 'Acme', message_template: 'x', validity_period_minutes: 10_081 } },
      ['sms_config', 'validity_period_minutes'],
      'maximum',
    ],
    [
      'validity_period_minutes 1.5',
      { sms_config: { sender_id: 'Acme', message_template: 'x', validity_period_minutes: 1.5 } },
      ['sms_config', 'validity_period_minutes'],
      'type',
    ],
    [
      'delivery_report a string',
      { sms_config: { sender_id: 'Acme', message_template: 'x', delivery_report: 'yes' } },
      ['sms_config', 'delivery_report'],
      'type',
    ],
    [
      'sms_config with an unknown member',
      { sms_config: { sender_id: 'Acme', message_template: 'x', priority: 1 } },
      ['sms_config', 'priority'],
      'additionalProperties',
    ],
    ['recipients missing', { recipients: undefined }, ['recipients'], 'missing'],
    ['recipients empty', { recipients: [] }, ['recipients'], 'minItems'],
    ['recipients an object', { recipients: { a: { phone_number: '1' } } }, ['recipients'], 'type'],
    ['recipients a string', { recipients: 'x' }, ['recipients'], 'type'],
    [
      'external_batch_id over 128',
      { external_batch_id: 'e'.repeat(129) },
      ['external_batch_id'],
      'maxLength',
    ],
    ['external_batch_id a number', { external_batch_id: 5 }, ['external_batch_id'], 'type'],
    ['schedule_at not a date', { schedule_at: 'tomorrow' }, ['schedule_at'], 'format'],
    [
      'schedule_at a day that does not exist',
      { schedule_at: '2026-02-30T10:00:00' },
      ['schedule_at'],
      'format',
    ],
    ['schedule_at a date without time', { schedule_at: '2026-12-01' }, ['schedule_at'], 'format'],
    [
      'schedule_at in year 0000',
      { schedule_at: '0000-06-01T00:00:00Z' },
      ['schedule_at'],
      'format',
    ],
    ['schedule_at a number', { schedule_at: 1_700_000_000 }, ['schedule_at'], 'type'],
    [
      'schedule_at 8 days ahead',
      { schedule_at: later(8 * 86_400_000) },
      ['schedule_at'],
      'maximum',
    ],
    [
      'the callback URL not http(s)',
      { notification_settings: { batch_event_callback_url: 'ftp://example.com/x' } },
      ['notification_settings', 'batch_event_callback_url'],
      'format',
    ],
    [
      'the callback URL relative',
      { notification_settings: { batch_event_callback_url: '/cb' } },
      ['notification_settings', 'batch_event_callback_url'],
      'format',
    ],
    [
      'the callback URL with CR LF and a header',
      { notification_settings: { batch_event_callback_url: 'http://127.0.0.1:9/cb\r\nX-Evil: 1' } },
      ['notification_settings', 'batch_event_callback_url'],
      'format',
    ],
    [
      'the callback URL with a space',
      { notification_settings: { batch_event_callback_url: 'http://127.0.0.1:9/a b' } },
      ['notification_settings', 'batch_event_callback_url'],
      'format',
    ],
    [
      'the callback URL with credentials',
      { notification_settings: { batch_event_callback_url: 'https://u:p@e.com/cb' } },
      ['notification_settings', 'batch_event_callback_url'],
      'format',
    ],
    [
      'the callback URL with a right-to-left override',
      { notification_settings: { batch_event_callback_url: 'https://e.com/\u202egpj.exe' } },
      ['notification_settings', 'batch_event_callback_url'],
      'format',
    ],
    [
      'the callback URL with a zero-width space in the host',
      { notification_settings: { batch_event_callback_url: 'https://e\u200b.com/cb' } },
      ['notification_settings', 'batch_event_callback_url'],
      'format',
    ],
    [
      'the callback URL to the metadata address in decimal (private targets not allowed)',
      { notification_settings: { batch_event_callback_url: 'http://2852039166/latest' } },
      ['notification_settings', 'batch_event_callback_url'],
      'format',
    ],
    [
      'the callback URL to an IPv6-mapped metadata address',
      { notification_settings: { batch_event_callback_url: 'http://[::ffff:a9fe:a9fe]/' } },
      ['notification_settings', 'batch_event_callback_url'],
      'format',
    ],
    [
      'the callback URL to localhost',
      { notification_settings: { batch_event_callback_url: 'http://localhost:8080/cb' } },
      ['notification_settings', 'batch_event_callback_url'],
      'format',
    ],
    [
      'the callback URL without slashes',
      { notification_settings: { batch_event_callback_url: 'http:e.com/cb' } },
      ['notification_settings', 'batch_event_callback_url'],
      'format',
    ],
    [
      'the callback URL over 2048',
      { notification_settings: { batch_event_callback_url: `https://e.com/${'a'.repeat(2040)}` } },
      ['notification_settings', 'batch_event_callback_url'],
      'maxLength',
    ],
    [
      'the callback URL missing',
      { notification_settings: { batch_event_callback_token: 'x' } },
      ['notification_settings', 'batch_event_callback_url'],
      'missing',
    ],
    [
      'the callback token over 64 characters',
      {
        notification_settings: {
          batch_event_callback_url: 'https://e.com/cb',
          batch_event_callback_token: 't'.repeat(65),
        },
      },
      ['notification_settings', 'batch_event_callback_token'],
      'maxLength',
    ],
    [
      'notification_settings with an unknown member',
      { notification_settings: { batch_event_callback_url: 'https://e.com/cb', secret: 'x' } },
      ['notification_settings', 'secret'],
      'additionalProperties',
    ],
    [
      'notification_settings a string',
      { notification_settings: 'x' },
      ['notification_settings'],
      'type',
    ],
    ['dry_run a string', { dry_run: 'true' }, ['dry_run'], 'type'],
    ['an unknown member of batch', { priority: 'high' }, ['priority'], 'additionalProperties'],
  ];

  it.each(cases)(
    'when %s, then 400 naming the field and the rule',
    async (_, members, path, type) => {
      const { account, token } = await svc.accountWithToken();
      const res = await svc.createBatch(token, batchBody(3, members as Record<string, unknown>));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details).toEqual([
        { loc: ['body', 'batch', ...path], type, msg: expect.any(String) },
      ]);
      expect(res.body.message).toContain(['body', 'batch', ...path].join('.'));
      expect(await batchCount(account.id)).toBe(0);
    },
  );

  it('when the sender id is invalid, then the detail gives the reason in words', async () => {
    const { token } = await svc.accountWithToken();
    const res = await svc.createBatch(
      token,
      batchBody(1, { sms_config: { sender_id: 'Acme!', message_template: 'x' } }),
    );
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toMatchObject({
      loc: ['body', 'batch', 'sms_config', 'sender_id'],
      type: 'alphanumeric_characters',
      msg: expect.stringContaining('"!" is not allowed'),
    });
  });

  it.each([
    ['the body is an array', [], ['body'], 'type'],
    ['the body has no batch', {}, ['body', 'batch'], 'missing'],
    ['batch is not an object', { batch: [] }, ['body', 'batch'], 'type'],
    [
      'the body has another member',
      { batch: batchBody(1).batch, extra: 1 },
      ['body', 'extra'],
      'additionalProperties',
    ],
  ])('when %s, then 400 naming it', async (_, body, loc, type) => {
    const { token } = await svc.accountWithToken();
    const res = await svc.createBatch(token, body);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ loc, type, msg: expect.any(String) }]);
  });

  it('when the members come after the recipients, then they are still checked and stored', async () => {
    const { token } = await svc.accountWithToken({ senderIds: ['12345'] });
    const json = `{"batch":{"recipients":[{"phone_number":"+4670"}],"dry_run":true,"sms_config":{"sender_id":"12345","message_template":"x"}}}`;
    const res = await svc.createBatch(token, gzipSync(json));
    expect(res.status).toBe(202);
    const { rows } = await svc.pool.query(
      'SELECT sender_id, dry_run FROM batch.batch WHERE id = $1',
      [res.body.id],
    );
    expect(rows[0]).toEqual({ sender_id: '12345', dry_run: true });
  });
});
