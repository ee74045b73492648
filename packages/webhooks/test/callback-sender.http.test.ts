import { createLogger } from '@msg/logger';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type CallbackSenderOptions,
  createCallbackSender,
  TARGET_NOT_ALLOWED,
  verifySignature,
} from '../src/index.js';
import { type Reply, startReceiver } from './receiver.js';

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

describe('signatures', () => {
  it('when a secret is set, then a POST carries an HMAC of its raw body and a timestamp', async () => {
    await sender({ signingSecret: 'shh' }).send({
      url: receiver.url,
      method: 'POST',
      body: { a: 1 },
    });
    const [req] = receiver.received;
    const signature = String(req?.headers['x-webhook-signature']);
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifySignature('shh', req?.body ?? '', signature)).toBe(true);
    expect(verifySignature('other', req?.body ?? '', signature)).toBe(false);
    const timestamp = Number(req?.headers['x-webhook-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(5);
  });

  it('when a secret is set, then a GET carries an HMAC of its full URL', async () => {
    await sender({ signingSecret: 'shh' }).send({
      url: `${receiver.url}/r?token=t`,
      method: 'GET',
      query: { a: 'b c' },
    });
    const [req] = receiver.received;
    const fullUrl = `${receiver.url}${req?.url}`;
    expect(verifySignature('shh', fullUrl, String(req?.headers['x-webhook-signature']))).toBe(true);
  });

  it('when no secret is set, then no signature header is sent', async () => {
    await sender().send({ url: receiver.url, method: 'POST', body: {} });
    expect(receiver.received[0]?.headers['x-webhook-signature']).toBeUndefined();
  });
});

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
