import { gzipSync } from 'node:zlib';
import {
  OPENAPI_DOCUMENTS,
  openapiDocumentPath,
  type RequestExample,
  readOpenApiDocument,
  requestExamples,
} from '@msg/contracts';
import got from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSuite } from '../src/suite.js';
import { startEmbedded } from './platform.js';

/**
 * Examples the platform cannot take as they are, and why; each is checked elsewhere. Everything
 * else must be accepted (2xx) with the demo account's credentials.
 */
const NOT_SENT_AS_IS: Record<string, { status: number; why: string }> = {
  // The example's client_secret is a placeholder a reader replaces with an API key: it must pass
  // every rule but the credential check.
  'POST /v1/oauth/token application/json': { status: 401, why: 'placeholder client_secret' },
  'POST /v1/oauth/token application/x-www-form-urlencoded': {
    status: 401,
    why: 'placeholder client_secret',
  },
  // Only RBM calls it, signed with a token clients never have; services/rcs's push tests sign
  // and send this example.
  'POST /rcs/v1/rbm/events application/json': { status: 403, why: 'signed by RBM' },
};

/** POSTs first: a later operation on `<collection>/{id}` works on what the POST made. */
const examples = OPENAPI_DOCUMENTS.flatMap((name) =>
  requestExamples(readOpenApiDocument(openapiDocumentPath(name))),
).sort((a, b) => Number(b.method === 'post') - Number(a.method === 'post'));

/**
 * Issue 23 item 8: Swagger UI's "Try it out" body for POST /v1/sms/send was refused. Every request
 * body example of every public document, sent as it is through the gateway of the running
 * platform with the demo account's credentials, must be accepted: the document's rules, the
 * input rules and the service's own (sender ids, agents, numbers, templates).
 */
describe('the request examples of the public documents, sent to the platform', () => {
  let suite: RunningSuite;
  let credentials: Record<string, Record<string, string>>;
  /** Ids the POST examples created, by collection path: `/v1/webhooks` → the webhook's id. */
  const created = new Map<string, string>();

  beforeAll(async () => {
    suite = await startEmbedded();
    const { username, password, apiKey } = suite.demo;
    const token = await got
      .post(`${suite.gatewayUrl}/v1/oauth/token`, {
        json: { client_id: username, client_secret: apiKey },
      })
      .json<{ access_token: string }>();
    credentials = {
      basicAuth: {
        authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
      },
      bearerAuth: { authorization: `Bearer ${token.access_token}` },
      apiKeyAuth: { 'x-api-key': apiKey, 'x-client-id': username },
    };
  }, 240_000);

  afterAll(async () => {
    await suite?.stop();
  }, 60_000);

  /** The example's path, with an id a POST example created where the template names one. */
  function pathOf(example: RequestExample): string {
    const parent = example.template.replace(/\/\{[^}]+\}$/, '');
    const id = parent !== example.template ? created.get(parent) : undefined;
    return id ? `${parent}/${id}` : example.path;
  }

  it.each(examples.map((example) => [example.where, example] as const))(
    'when %s is sent as its example, then the platform takes it',
    async (where, example) => {
      const gzip = example.headers['Content-Encoding'] === 'gzip';
      const res = await got(`${suite.gatewayUrl}${pathOf(example)}`, {
        method: example.method.toUpperCase() as 'POST',
        searchParams: example.query,
        headers: Object.assign(
          { ...example.headers, 'content-type': example.mediaType },
          ...example.security.map((scheme) => credentials[scheme] ?? {}),
        ),
        // The batch body goes gzip-compressed, as its Content-Encoding example says.
        body: gzip
          ? gzipSync(JSON.stringify(example.body))
          : example.mediaType === 'application/x-www-form-urlencoded'
            ? new URLSearchParams(example.body as Record<string, string>).toString()
            : JSON.stringify(example.body),
        throwHttpErrors: false,
        retry: { limit: 0 },
        responseType: 'json',
      });
      const expected = NOT_SENT_AS_IS[where];
      const answer = `${res.statusCode} ${JSON.stringify(res.body)}`;
      if (expected) {
        expect(res.statusCode, answer).toBe(expected.status);
        return;
      }
      expect(res.statusCode, answer).toBeGreaterThanOrEqual(200);
      expect(res.statusCode, answer).toBeLessThan(300);
      const id = (res.body as { id?: unknown }).id;
      if (example.method === 'post' && typeof id === 'string') created.set(example.template, id);
    },
  );
});
