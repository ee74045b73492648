import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { batchBody, startTestBatch, type TestBatchService } from './support.js';

/** getBatch, pollBatch, pollBatchWithDelta and cancelBatch (specification 3.1, 4.2, 7.1, 8.1). */
let batch: TestBatchService;

beforeAll(async () => {
  batch = await startTestBatch({
    env: { BATCH_WORKER_INTERVAL: '20ms', BATCH_PROGRESS_INTERVAL: '10ms' },
  });
}, 60_000);
afterAll(async () => {
  await batch?.stop();
});

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
const get = (token: string, path: string) =>
  request(batch.app).get(path).set('Authorization', `Bearer ${token}`);
const cancel = (token: string, id: string) =>
  request(batch.app).post(`/v1/batches/${id}/cancel`).set('Authorization', `Bearer ${token}`);

/** A new account with a token and one created batch of `count` recipients. */
async function created(count: number, members: Record<string, unknown> = {}) {
  const { account, token } = await batch.accountWithToken();
  const res = await batch.createBatch(token, batchBody(count, members));
  expect(res.status).toBe(202);
  return { account, token, id: res.body.id as string };
}

async function completed(token: string, id: string) {
  return vi.waitFor(
    async () => {
      const res = await get(token, `/v1/batches/${id}/poll`);
      if (res.body.batch_status_summary.status !== 'completed') throw new Error('not yet');
      return res.body.batch_status_summary;
    },
    { timeout: 20_000, interval: 50 },
  );
}

describe('getBatch', () => {
  it('when the batch is the caller’s, then its summary, sms_config and notification_settings come back', async () => {
    const { token, id } = await created(3, {
      external_batch_id: 'mine-1',
      schedule_at: inAnHour(),
      sms_config: {
        sender_id: 'Acme',
        message_template: 'Hi {{name}}',
        validity_period_minutes: 60,
        delivery_report: true,
      },
      notification_settings: {
        batch_event_callback_url: 'https://example.com/events',
        batch_event_callback_token: 'tok',
      },
    });
    const res = await get(token, `/v1/batches/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      batch_status_summary: expect.objectContaining({
        batch_id: id,
        external_batch_id: 'mine-1',
        status: 'scheduled',
        total_messages: 3,
        submitted_messages: 0,
        failed_messages: 0,
        pending_messages: 3,
        started_at: null,
        completed_at: null,
      }),
      sms_config: {
        sender_id: 'Acme',
        message_template: 'Hi {{name}}',
        validity_period_minutes: 60,
        delivery_report: true,
      },
      notification_settings: {
        batch_event_callback_url: 'https://example.com/events',
        batch_event_callback_token: 'tok',
      },
    });
  });

  it('when the id is unknown, not a uuid, or another account’s batch, then 404', async () => {
    const { id } = await created(1, { schedule_at: inAnHour() });
    const other = await batch.accountWithToken();
    for (const path of [
      `/v1/batches/${crypto.randomUUID()}`,
      '/v1/batches/not-a-batch',
      `/v1/batches/${id}`,
      `/v1/batches/${id}/poll`,
      `/v1/batches/${id}/poll_with_delta`,
    ]) {
      const res = await get(other.token, path);
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    expect((await cancel(other.token, id)).status).toBe(404);
  });

  it('when there is no token, or the account was disabled after it got one, then 401 or 403', async () => {
    const { account, token, id } = await created(1, { schedule_at: inAnHour() });
    expect((await request(batch.app).get(`/v1/batches/${id}`)).status).toBe(401);
    await batch.publishAccount({ ...account, status: 'disabled', version: account.version + 1 });
    await vi.waitFor(async () => expect((await get(token, `/v1/batches/${id}`)).status).toBe(403));
  });

  it('when the bearer token is garbled in any way, then every read and cancel is 401 with the Bearer challenge', async () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    const id = crypto.randomUUID();
    const tokens = [
      'eyJ0eXAiOiJKV1QifQ.bm90IGpzb24.x',
      `${b64('{"typ":"JWT","alg":"HS256","kid":"k1"}')}.${b64('not json')}.x`,
      `${b64('{"typ":"JWT"}')}.!!!.x`,
      `${b64('{typ')}.${b64('{}')}.x`,
      `${b64('{"typ":"JWT","alg":"none"}')}.${b64('{"sub":"x"}')}.`,
      '..',
    ];
    for (const token of tokens) {
      for (const res of [
        await get(token, `/v1/batches/${id}`),
        await get(token, `/v1/batches/${id}/poll`),
        await get(token, `/v1/batches/${id}/poll_with_delta`),
        await cancel(token, id),
      ]) {
        expect(res.status, token).toBe(401);
        expect(res.headers['www-authenticate'], token).toMatch(/^Bearer /);
      }
    }
  });
});

describe('pollBatch and pollBatchWithDelta', () => {
  it('when a dry-run batch completes, then paging the delta returns every message exactly once, in order', async () => {
    const { token, id } = await created(25, { dry_run: true });
    const summary = await completed(token, id);
    expect(summary).toMatchObject({
      total_messages: 25,
      submitted_messages: 25,
      pending_messages: 0,
    });

    const poll = await get(token, `/v1/batches/${id}/poll`);
    expect(poll.body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);

    const seen: string[] = [];
    let sequence = 0;
    let pages = 0;
    for (;;) {
      const res = await get(token, `/v1/batches/${id}/poll_with_delta`).query({
        last_sequence_id: sequence,
        max_delta_size: 10,
      });
      expect(res.status).toBe(200);
      pages += 1;
      for (const item of res.body.submitted_messages_delta) {
        expect(Object.keys(item).sort()).toEqual(
          [
            'external_message_id',
            'id',
            'message',
            'phone_number',
            'submission_status',
            'submission_time',
            'transaction_id',
          ].sort(),
        );
        expect(item.submission_status).toBe('SUBMITTED');
        seen.push(item.external_message_id);
      }
      expect(res.body.next_sequence).toBeGreaterThanOrEqual(sequence);
      sequence = res.body.next_sequence;
      if (!res.body.has_more) break;
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);

    // Nothing new: the same sequence comes back with an empty page.
    const after = await get(token, `/v1/batches/${id}/poll_with_delta`).query({
      last_sequence_id: sequence,
    });
    expect(after.body).toMatchObject({
      next_sequence: sequence,
      has_more: false,
      submitted_messages_delta: [],
    });
  });

  it('when the delta carries the rendered message, then it is the template filled from field_message', async () => {
    const { token, id } = await created(2, { dry_run: true });
    await completed(token, id);
    const res = await get(token, `/v1/batches/${id}/poll_with_delta`);
    expect(res.body.submitted_messages_delta.map((d: { message: string }) => d.message)).toEqual([
      'Hello N0',
      'Hello N1',
    ]);
    expect(res.body.submitted_messages_delta[0]).toMatchObject({
      phone_number: '+46700000000',
      external_message_id: 'ext-0',
    });
  });

  it.each([
    [{ max_delta_size: 0 }, 'max_delta_size'],
    [{ max_delta_size: 2001 }, 'max_delta_size'],
    [{ max_delta_size: 'many' }, 'max_delta_size'],
    [{ last_sequence_id: -1 }, 'last_sequence_id'],
  ])('when the query is %j, then 400 naming %s', async (query, field) => {
    const { token, id } = await created(1, { schedule_at: inAnHour() });
    const res = await get(token, `/v1/batches/${id}/poll_with_delta`).query(query);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.details)).toContain(field);
  });
});

describe('integer query parameters of pollBatchWithDelta', () => {
  const poll = (token: string, id: string, query: string) =>
    get(token, `/v1/batches/${id}/poll_with_delta?${query}`);

  it.each([
    'last_sequence_id=Infinity',
    'last_sequence_id=-Infinity',
    'last_sequence_id=1e400',
    `last_sequence_id=${'9'.repeat(310)}`,
    'last_sequence_id=9007199254740992',
    'last_sequence_id=0x10',
    'last_sequence_id=0b11',
    'last_sequence_id=1e3',
    'last_sequence_id=',
    'last_sequence_id=%201',
    'last_sequence_id=+1',
    'last_sequence_id=1.0',
    'max_delta_size=Infinity',
    'max_delta_size=1e400',
    'max_delta_size=0x10',
    'max_delta_size=',
  ])('when the query is %s, then 400 naming that parameter', async (query) => {
    const { token, id } = await created(1, { schedule_at: inAnHour() });
    const name = query.split('=')[0] ?? '';
    const res = await poll(token, id, query);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details).toEqual([
      { loc: ['query', name], type: 'type', msg: 'must be integer' },
    ]);
    expect(res.body.message).toContain(`query.${name}`);
  });

  it('when the parameters are decimal integers in range, then 200; out of the schema bounds, then 400', async () => {
    const { token, id } = await created(1, { schedule_at: inAnHour() });
    expect((await poll(token, id, 'last_sequence_id=0&max_delta_size=2000')).status).toBe(200);
    expect(
      (await poll(token, id, 'last_sequence_id=9007199254740991&max_delta_size=1')).status,
    ).toBe(200);
    expect((await poll(token, id, 'max_delta_size=2001')).status).toBe(400);
    expect((await poll(token, id, 'last_sequence_id=-1')).status).toBe(400);
  });
});

describe('cancelBatch', () => {
  it('when a scheduled batch is canceled, then 200 canceled with batch.canceled queued; again is 409', async () => {
    const { token, id } = await created(2, {
      schedule_at: inAnHour(),
      notification_settings: { batch_event_callback_url: 'https://example.com/e' },
    });
    const res = await cancel(token, id);
    expect(res.status).toBe(200);
    expect(res.body.batch_status_summary).toMatchObject({
      batch_id: id,
      status: 'canceled',
      pending_messages: 2,
    });
    expect(res.body.batch_status_summary.completed_at).not.toBeNull();
    const events = (await batch.outboxFor(id)).map(
      (row) => (row.value.payload as { body: { event_type: string } }).body.event_type,
    );
    expect(events).toEqual(['batch.created', 'batch.scheduled', 'batch.canceled']);

    const again = await cancel(token, id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CONFLICT');
  });

  it('when the batch has completed, then cancel is 409 and nothing changes', async () => {
    const { token, id } = await created(1, { dry_run: true });
    await completed(token, id);
    const res = await cancel(token, id);
    expect(res.status).toBe(409);
    expect((await get(token, `/v1/batches/${id}/poll`)).body.batch_status_summary.status).toBe(
      'completed',
    );
  });

  it('when a canceled batch’s schedule comes due, then it never starts', async () => {
    const { token, id } = await created(1, { schedule_at: inAnHour() });
    expect((await cancel(token, id)).status).toBe(200);
    await batch.pool.query(
      `UPDATE batch.batch SET scheduled_at = now() - interval '1 minute' WHERE id = $1`,
      [id],
    );
    await new Promise((r) => setTimeout(r, 200));
    const res = await get(token, `/v1/batches/${id}/poll`);
    expect(res.body.batch_status_summary).toMatchObject({ status: 'canceled', started_at: null });
  });
});
