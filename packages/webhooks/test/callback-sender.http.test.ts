import { createLogger } from '@msg/logger';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type CallbackSenderOptions,
  createCallbackSender,
  generateSigningSecret,
  TARGET_NOT_ALLOWED,
} from '../src/index.js';
import { type ReceivedRequest, type Reply, startReceiver } from './receiver.js';

const logger = createLogger({ service: 'webhooks-test', level: 'error' });
let reply: Reply = (_req, res) => res.writeHead(204).end();
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver((req, res) => reply(req, res));
});
afterAll(() => receiver.close());
afterEach(() => {
  reply = (_req, res) => res.writeHead(204).end();
  receiver.received.length = 0;
});

function sender(options: Partial<CallbackSenderOptions> = {}) {
  return createCallbackSender({
    logger,
    userAgent: 'msg-notifier/test',
    allowedHosts: ['127.0.0.1'],
    ...options,
  });
}

describe('send GET', () => {
  it('when a query is given, then it is URL-encoded after the existing query, which is kept as written', async () => {
    const result = await sender().send({
      url: `${receiver.url}/reply?token=a%2Fb~c`,
      method: 'GET',
      query: { to: '+46 70 123', text: 'hej & å=1' },
    });
    expect(result).toMatchObject({ ok: true, status: 204, retryable: false });
    const [req] = receiver.received;
    expect(req?.method).toBe('GET');
    expect(req?.url.startsWith('/reply?token=a%2Fb~c&')).toBe(true);
    const params = new URL(req?.url ?? '', receiver.url).searchParams;
    expect(params.get('token')).toBe('a/b~c');
    expect(params.get('to')).toBe('+46 70 123');
    expect(params.get('text')).toBe('hej & å=1');
    expect(req?.headers['user-agent']).toBe('msg-notifier/test');
  });
});

describe('send POST', () => {
  it('when a query is given, then it goes on the URL and the body stays JSON (batch ?token=)', async () => {
    const result = await sender().send({
      url: `${receiver.url}/events`,
      method: 'POST',
      query: { token: 'tok en/1' },
      body: { event_type: 'batch.created' },
    });
    expect(result).toMatchObject({ ok: true });
    const [req] = receiver.received;
    expect(req?.method).toBe('POST');
    expect(new URL(req?.url ?? '', receiver.url).searchParams.get('token')).toBe('tok en/1');
    expect(JSON.parse(req?.body ?? '')).toEqual({ event_type: 'batch.created' });
  });

  it('when a body is given, then it arrives as JSON with the extra headers', async () => {
    const body = { id: 'm1', status: 'DELIVERED', nested: { n: 1 } };
    const result = await sender().send({
      url: `${receiver.url}/dlr`,
      method: 'POST',
      body,
      headers: { 'x-extra': 'yes' },
    });
    expect(result.ok).toBe(true);
    const [req] = receiver.received;
    expect(req?.method).toBe('POST');
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers['x-extra']).toBe('yes');
    expect(JSON.parse(req?.body ?? '')).toEqual(body);
  });
});

describe('classification', () => {
  it.each([
    [200, true, false],
    [204, true, false],
    [500, false, true],
    [503, false, true],
    [408, false, true],
    [429, false, true],
    [400, false, false],
    [404, false, false],
    [410, false, false],
  ])('when the receiver answers %i, then ok=%s and retryable=%s', async (status, ok, retryable) => {
    reply = (_req, res) => res.writeHead(status).end('answer');
    const result = await sender().send({ url: receiver.url, method: 'POST', body: {} });
    expect(result).toMatchObject({ ok, retryable, status });
    if (!ok) expect(result.error).toBe(`HTTP ${status}`);
  });

  it('when the receiver is slower than the timeout, then the attempt fails as retryable without naming query values', async () => {
    reply = (_req, res) => {
      setTimeout(() => res.writeHead(200).end(), 1_000);
    };
    const result = await sender({ timeoutMs: 150 }).send({
      url: receiver.url,
      method: 'GET',
      query: { secretValue: 'do-not-log-me' },
    });
    expect(result).toMatchObject({ ok: false, retryable: true });
    expect(result.error).toMatch(/ETIMEDOUT/);
    expect(result.error).not.toContain('do-not-log-me');
    expect(result.durationMs).toBeGreaterThanOrEqual(100);
    expect(result.durationMs).toBeLessThan(900);
  });

  it('when nothing listens on the port, then the attempt fails as retryable', async () => {
    const closed = await startReceiver();
    await closed.close();
    const result = await sender().send({ url: closed.url, method: 'POST', body: {} });
    expect(result).toMatchObject({ ok: false, retryable: true });
    expect(result.error).toMatch(/ECONNREFUSED/);
  });

  it('when the URL is not http(s), then it gives up at once', async () => {
    const result = await sender().send({ url: 'ftp://example.com/x', method: 'GET' });
    expect(result).toMatchObject({ ok: false, retryable: false });
  });
});

describe('redirects', () => {
  it('when redirected within the same origin, then it follows; to another host, then it does not', async () => {
    reply = (req, res) => {
      if (req.url === '/old') res.writeHead(307, { location: '/new' }).end();
      else if (req.url === '/away') res.writeHead(302, { location: 'http://localhost:1/x' }).end();
      else res.writeHead(200).end();
    };
    expect(
      await sender().send({ url: `${receiver.url}/old`, method: 'POST', body: {} }),
    ).toMatchObject({ ok: true, status: 200 });
    expect(receiver.received.map((r) => r.url)).toEqual(['/old', '/new']);
    expect(await sender().send({ url: `${receiver.url}/away`, method: 'GET' })).toMatchObject({
      ok: false,
      status: 302,
      retryable: false,
    });
  });
});

describe('signatures (Standard Webhooks)', () => {
  const secret = generateSigningSecret();

  it('when a POST is signed, then webhook-id, webhook-timestamp and webhook-signature over its raw body verify with the standardwebhooks verifier', async () => {
    await sender().send({
      url: `${receiver.url}/cb?token=t`,
      method: 'POST',
      body: { a: 1 },
      signing: { id: 'cb-post', secrets: [secret] },
    });
    const [req] = receiver.received;
    expect(req?.headers['webhook-id']).toBe('cb-post');
    expect(Math.abs(Number(req?.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    expect(new Webhook(secret).verify(req?.body ?? '', headersOf(req))).toEqual({ a: 1 });
    expect(() =>
      new Webhook(generateSigningSecret()).verify(req?.body ?? '', headersOf(req)),
    ).toThrow(WebhookVerificationError);
  });

  it('when a GET is signed, then the signature covers its query string as received, so a changed query does not verify', async () => {
    await sender().send({
      url: `${receiver.url}/r?token=t`,
      method: 'GET',
      query: { Msg: 'hej då & 1', InResponseTo: 'tx-1' },
      signing: { id: 'cb-get', secrets: [secret] },
    });
    const [req] = receiver.received;
    const query = req?.url.split('?')[1] ?? '';
    expect(query).toContain('Msg=');
    const verifier = new Webhook(secret);
    expect(verifier.verify(query, headersOf(req), { jsonParse: false })).toBeUndefined();
    expect(() =>
      verifier.verify(query.replace('tx-1', 'tx-2'), headersOf(req), { jsonParse: false }),
    ).toThrow('No matching signature found');
  });

  it('when two secrets sign, then one space-separated header carries a signature of each', async () => {
    const next = generateSigningSecret();
    await sender().send({
      url: receiver.url,
      method: 'POST',
      bodyText: '{"b": 2}',
      signing: { id: 'cb-two', secrets: [next, secret] },
    });
    const [req] = receiver.received;
    expect(String(req?.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(new Webhook(next).verify('{"b": 2}', headersOf(req))).toEqual({ b: 2 });
    expect(new Webhook(secret).verify('{"b": 2}', headersOf(req))).toEqual({ b: 2 });
  });

  it('when a requester sends its own x- signature header, then it is kept beside the Standard Webhooks ones', async () => {
    await sender().send({
      url: receiver.url,
      method: 'POST',
      bodyText: '{}',
      headers: { 'X-Webhook-Signature': 'abc123' },
      signing: { id: 'cb-rcs', secrets: [secret] },
    });
    const [req] = receiver.received;
    expect(req?.headers['x-webhook-signature']).toBe('abc123');
    expect(new Webhook(secret).verify('{}', headersOf(req))).toEqual({});
  });

  it('when no signing is asked for, then no signature header is sent', async () => {
    await sender().send({ url: receiver.url, method: 'POST', body: {} });
    expect(receiver.received[0]?.headers['webhook-signature']).toBeUndefined();
  });
});

/** The received headers as the verifier takes them (strings only). */
function headersOf(req: ReceivedRequest | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(req?.headers ?? {}).map(([name, value]) => [name, String(value)]),
  );
}

describe('private targets', () => {
  it.each([
    'http://127.0.0.1:{port}/',
    'http://10.0.0.1/',
    'http://192.168.1.1/',
    'http://172.16.5.4/',
    'http://[::1]:{port}/',
    'http://169.254.169.254/latest/meta-data',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://224.0.0.1/',
    'http://[::ffff:127.0.0.1]:{port}/',
    'http://0x7f.0.0.1:{port}/',
  ])(
    'when the target is %s and nothing is allowed, then it is refused without a request',
    async (template) => {
      const url = template.replace('{port}', String(receiver.port));
      const result = await createCallbackSender({ logger, userAgent: 't' }).send({
        url,
        method: 'GET',
      });
      expect(result).toMatchObject({ ok: false, retryable: false, error: TARGET_NOT_ALLOWED });
      expect(receiver.received).toHaveLength(0);
    },
  );

  it('when a host NAME resolves to loopback, then the connect-time lookup refuses it', async () => {
    // Only 127.0.0.1 as written is trusted; "localhost" must be judged by what it resolves to.
    const result = await sender().send({
      url: `http://localhost:${receiver.port}/`,
      method: 'GET',
    });
    expect(result).toMatchObject({ ok: false, retryable: false, error: TARGET_NOT_ALLOWED });
    expect(receiver.received).toHaveLength(0);
  });

  it('when private targets are allowed, or the name is an allowed host, then the request goes out', async () => {
    const open = createCallbackSender({ logger, userAgent: 't', allowPrivateTargets: true });
    expect((await open.send({ url: `http://localhost:${receiver.port}/`, method: 'GET' })).ok).toBe(
      true,
    );
    const named = createCallbackSender({ logger, userAgent: 't', allowedHosts: ['LOCALHOST'] });
    expect(
      (await named.send({ url: `http://localhost:${receiver.port}/`, method: 'GET' })).ok,
    ).toBe(true);
    expect(receiver.received).toHaveLength(2);
    open.close();
    named.close();
  });
});
