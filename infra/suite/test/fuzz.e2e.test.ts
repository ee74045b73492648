import { randomBytes } from 'node:crypto';
import { createLogger } from '@msg/logger';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSuiteConfig } from '../src/config.js';
import { type RunningSuite, startSuite } from '../src/suite.js';
import {
  type Answer,
  type Credentials,
  type FuzzRequest,
  judge,
  requestsFor,
  trailingSlashed,
} from './fuzz/fuzz-cases.js';
import { fuzzedDocuments, type Operation, operationsOf } from './fuzz/openapi-operations.js';
import { send } from './fuzz/send.js';

/**
 * Every operation of every OpenAPI document in packages/contracts/openapi, fuzzed against the
 * embedded platform: requests generated from the operation's schemas (most valid, with the demo
 * account's credentials, the rest mutated: wrong types, hostile strings, broken bodies, parameter
 * and path tricks, forged credentials, odd methods; client URLs in every
 * character class and private-address spelling, phone numbers too short or too long; and one valid
 * request with a trailing slash). Never a 5xx, never a 2xx for what the schema or the credentials refuse, every error in
 * the media type and schema its document declares, and the platform healthy afterwards. A new operation in a document is fuzzed without new code.
 *
 * `pnpm test`: a fixed seed, 30 cases per operation. `pnpm fuzz`: FUZZ_SEED (`random` unless
 * given) and FUZZ_RUNS (300 unless given); the seed and the totals are printed at the end.
 */
const SEED =
  process.env.FUZZ_SEED === 'random'
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(process.env.FUZZ_SEED ?? 20261124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const ODD_METHODS = ['PUT', 'PATCH', 'DELETE', 'PROPFIND'];

const operations = fuzzedDocuments().flatMap((document) => operationsOf(document));

interface Failure {
  request: Omit<FuzzRequest, 'body'> & { body?: string };
  answer: Answer;
  problem: string;
}

describe(`fuzz of every documented operation (seed ${SEED}, ${RUNS} cases each)`, () => {
  let suite: RunningSuite;
  let credentials: Credentials;
  const totals = { requests: 0, failures: 0, byStatus: {} as Record<number, number> };

  beforeAll(async () => {
    const demo = {
      username: 'demo',
      password: randomBytes(9).toString('base64url'),
      apiKey: `demo_${randomBytes(18).toString('base64url')}`,
    };
    suite = await startSuite(
      loadSuiteConfig({
        PORT: '0',
        ADMIN_PORT: '0',
        SMSC_CONTROL_PORT: '0',
        EMBEDDED_DATA_DIR: 'memory',
        LOG_LEVEL: 'error',
        // As in production: callbacks to addresses inside the network are refused on request.
        CALLBACK_ALLOW_PRIVATE_TARGETS: 'false',
        // RCS allows 100 requests a minute per client: the fuzz would mostly meet 429 there.
        RCS_RATE_LIMIT_PER_MINUTE: '1000000',
        DEMO_USERNAME: demo.username,
        DEMO_PASSWORD: demo.password,
        DEMO_API_KEY: demo.apiKey,
      }),
      createLogger({ service: 'fuzz', level: 'error' }),
    );
    const token = await fetch(`${suite.gatewayUrl}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: demo.username, client_secret: demo.apiKey }),
    }).then((res) => res.json() as Promise<{ access_token: string }>);
    credentials = {
      basicAuth: `Basic ${Buffer.from(`${demo.username}:${demo.password}`).toString('base64')}`,
      bearerAuth: `Bearer ${token.access_token}`,
      adminToken: `Bearer ${suite.adminToken}`,
      // RCS: both headers are one credential; its operator API takes the admin token.
      apiKeyAuth: { 'x-api-key': demo.apiKey, 'x-client-id': demo.username },
      adminBearer: `Bearer ${suite.adminToken}`,
    };
  }, 180_000);

  afterAll(async () => {
    process.stdout.write(
      `fuzz: seed ${SEED}, ${RUNS} cases per operation, ${operations.length} operations, ${totals.requests} requests, ${totals.failures} failures; answers by status ${JSON.stringify(totals.byStatus)}\n`,
    );
    await suite?.stop();
  }, 60_000);

  /** `/internal/` paths are not routed by the gateway: they are called on their service. */
  const baseUrl = (op: Operation) =>
    op.path.startsWith('/internal/')
      ? ((op.document === 'admin' ? suite.adminUrl : suite.serviceUrls[op.document]) ??
        suite.gatewayUrl)
      : suite.gatewayUrl;

  it.each(operations.map((op) => [`${op.document} ${op.operationId}`, op] as const))(
    'when %s is fuzzed, then no 5xx, no 2xx for a refused request, every error in its declared format',
    async (_name, op) => {
      const declared = operations
        .filter((o) => o.document === op.document && o.path === op.path)
        .map((o) => o.method.toUpperCase());
      const sampled = fc.sample(
        requestsFor(
          op,
          credentials,
          ODD_METHODS.filter((m) => !declared.includes(m)),
        ),
        { seed: SEED + operations.indexOf(op), numRuns: RUNS },
      );
      const requests = [...sampled, ...trailingSlashed(sampled)];
      const failures: Failure[] = [];
      for (const request of requests) {
        const answer = await send(baseUrl(op), request);
        totals.requests += 1;
        totals.byStatus[answer.status] = (totals.byStatus[answer.status] ?? 0) + 1;
        const problem =
          answer.status === 0 ? `no answer: ${answer.body}` : judge(op, request, answer);
        if (problem) {
          totals.failures += 1;
          const { body, ...rest } = request;
          failures.push({
            request: { ...rest, ...(body && { body: body.toString('utf8').slice(0, 300) }) },
            answer: { ...answer, body: answer.body.slice(0, 300) },
            problem,
          });
        }
      }
      expect(failures).toEqual([]);
    },
    600_000,
  );

  it('when the fuzz is over, then the platform is healthy and a valid request still works', async () => {
    expect((await fetch(`${suite.gatewayUrl}/healthz`)).status).toBe(200);
    const res = await fetch(`${suite.gatewayUrl}/v1/numbers/46701234567`, {
      headers: { authorization: credentials.basicAuth as string },
    });
    expect(res.status).toBe(200);
  });
});
