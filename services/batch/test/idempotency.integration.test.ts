import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from '@msg/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  batchBody,
  gzipJson,
  startTestBatch,
  TEST_DATABASE_URL,
  type TestBatchService,
} from './support.js';

// Real Postgres (a pool of several connections), so a second request can run while the first
// upload is still streaming — on the one-connection embedded database it would simply wait.
let svc: TestBatchService;
let server: Server;
let port: number;

beforeAll(async () => {
  svc = await startTestBatch({ databaseUrl: TEST_DATABASE_URL });
  server = svc.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await svc?.stop();
});

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: { id?: string; code?: string };
}

function readJson(res: IncomingMessage): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () =>
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: JSON.parse(Buffer.concat(chunks).toString() || '{}'),
      }),
    );
    res.on('error', reject);
  });
}

/** Starts an upload and sends only its first `sent` bytes; `finish()` sends the rest. */
function startUpload(token: string, key: string, body: Buffer, sent: number) {
  const req = httpRequest({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/v1/batches',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      'Content-Encoding': 'gzip',
      'Content-Length': body.length,
      'Idempotency-Key': key,
    },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => readJson(res).then(resolve, reject));
    req.on('error', reject);
  });
  req.write(body.subarray(0, sent));
  return {
    answer,
    finish() {
      req.end(body.subarray(sent));
      return answer;
    },
  };
}

describe('createBatch with Idempotency-Key on Postgres', () => {
  it('when the same key arrives while the first upload is still streaming, then 409, and after it ends the 202 is replayed', async () => {
    const { account, token } = await svc.accountWithToken();
    const key = randomUUID();
    const body = gzipJson(batchBody(2000));
    const first = startUpload(token, key, body, Math.floor(body.length / 2));
    await eventually(async () => {
      const { rowCount } = await svc.pool.query(
        'SELECT 1 FROM batch.idempotency_key WHERE scope = $1 AND key = $2',
        [account.id, key],
      );
      return rowCount === 1 ? true : undefined;
    }, 'the first upload to hold the key');

    const second = await startUpload(token, key, body, body.length).finish();
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect(second.headers['retry-after']).toBe('1');

    const done = await first.finish();
    expect(done.status).toBe(202);
    const retried = await startUpload(token, key, body, body.length).finish();
    expect(retried.status).toBe(202);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.body.id).toBe(done.body.id);

    const { rows } = await svc.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM batch.batch WHERE account_id = $1',
      [account.id],
    );
    expect(rows[0]?.n).toBe(1);
  });
});
