import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  batchBody,
  gzipJson,
  startTestBatch,
  TEST_DATABASE_URL,
  type TestBatchService,
} from './support.js';

// Real Postgres: recipients arrive through COPY FROM STDIN. Rows are per batch id, so the fixed
// schema "batch" of the shared test database is fine.
let svc: TestBatchService;

beforeAll(async () => {
  svc = await startTestBatch({ databaseUrl: TEST_DATABASE_URL });
}, 120_000);

afterAll(async () => {
  await svc?.stop();
});

/** A body of `count` recipients built as text (a million objects would be a heap spike here too). */
function bigBody(count: number): Buffer {
  const parts: string[] = [
    '{"batch":{"sms_config":{"sender_id":"Acme","message_template":"Hello {{name}}"},"dry_run":true,"recipients":[',
  ];
  for (let i = 0; i < count; i += 1) {
    parts.push(
      `${i === 0 ? '' : ','}{"phone_number":"+467${String(i).padStart(8, '0')}","field_message":{"name":"N${i}"}}`,
    );
  }
  parts.push(']}}');
  return gzipJson(parts.join(''));
}

describe('createBatch on Postgres (COPY)', () => {
  it('when the batch has 100,000 recipients, then 202 and every one is stored with seq 1..100000 and its fields', async () => {
    const { token } = await svc.accountWithToken();
    const res = await svc.createBatch(token, bigBody(100_000));
    expect(res.status).toBe(202);
    expect(await svc.storedRecipients(res.body.id)).toEqual({
      n: '100000',
      min: 1,
      max: 100000,
      ok: '100000',
      total: 100_000,
    });
  });

  it('when values need COPY escaping, then they arrive unchanged', async () => {
    const { token } = await svc.accountWithToken();
    const tricky = { a: 'tab\there', b: 'new\nline\r\n', c: 'back\\slash \\N', d: 'å😀' };
    const res = await svc.createBatch(
      token,
      batchBody(0, {
        recipients: [
          { phone_number: '+4670\\1', external_message_id: 'x\ty', field_message: tricky },
        ],
      }),
    );
    expect(res.status).toBe(202);
    const { rows } = await svc.pool.query(
      'SELECT phone_number, external_message_id, fields FROM batch.message WHERE batch_id = $1',
      [res.body.id],
    );
    expect(rows).toEqual([
      { phone_number: '+4670\\1', external_message_id: 'x\ty', fields: tricky },
    ]);
  });

  it('when recipient 50,000 of 60,000 is broken, then 400 naming it and nothing of the batch is stored', async () => {
    const { account, token } = await svc.accountWithToken();
    const body = batchBody(60_000);
    (body.batch.recipients as unknown[])[50_000] = { phone_number: 1 };
    const res = await svc.createBatch(token, body);
    expect(res.status).toBe(400);
    expect(res.body.details[0].loc).toEqual([
      'body',
      'batch',
      'recipients',
      '50000',
      'phone_number',
    ]);
    const { rows } = await svc.pool.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM batch.batch WHERE account_id = $1',
      [account.id],
    );
    expect(rows[0]?.n).toBe('0');
  });

  it('when the batch has 1,000,001 recipients, then 400 as soon as the count passes 1,000,000, nothing stored', async () => {
    const { account, token } = await svc.accountWithToken();
    const res = await svc.createBatch(token, bigBody(1_000_001));
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      {
        loc: ['body', 'batch', 'recipients'],
        type: 'maxItems',
        msg: 'must hold at most 1000000 recipients',
      },
    ]);
    const { rows } = await svc.pool.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM batch.batch WHERE account_id = $1',
      [account.id],
    );
    expect(rows[0]?.n).toBe('0');
  }, 300_000);
});
