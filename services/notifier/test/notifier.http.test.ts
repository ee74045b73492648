import { Topics } from '@msg/contracts';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { loadNotifierConfig } from '../src/config.js';
import { SECRETS_KEY, useNotifierHarness } from './harness.js';
import {
  batchEventMessage,
  callbackMessage,
  callbackRequest,
  eventually,
  publishCallback,
} from './support.js';

const world = useNotifierHarness();
const { notifier, receiver, rowOf } = world;
const bus = () => world.bus();
const deliveredRow = (req: { callbackId: string }) => world.deliveredRow(req.callbackId);
const deadLetters = { of: (callbackId: string) => world.deadLetters().of(callbackId) };

describe('delivery', () => {
  it('when a GET callback with a query is published, then the receiver gets it with the query added to its own', async () => {
    const service = await notifier();
    const target = await receiver();
    const req = callbackRequest(`${target.url}/reply?token=abc`, {
      method: 'GET',
      query: { from: '+46701234567', text: 'hej då & välkommen' },
      origin: { service: 'replypath', kind: 'inbound' },
    });
    await publishCallback(bus(), req);
    expect(await deliveredRow(req)).toMatchObject({ attempts: 1, last_error: null });
    expect(target.received).toHaveLength(1);
    const url = new URL(target.received[0]?.url ?? '', target.url);
    expect(url.pathname).toBe('/reply');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      token: 'abc',
      from: '+46701234567',
      text: 'hej då & välkommen',
    });
    const metrics = await request(service.app).get('/metrics');
    expect(metrics.text).toMatch(/callback_attempts_total\{[^}]*outcome="delivered"[^}]*\} [1-9]/);
    expect(metrics.text).toContain('callback_delivery_seconds_bucket');
    expect((await request(service.app).get('/readyz')).status).toBe(200);
    expect((await request(service.app).get('/healthz')).status).toBe(200);
  });

  it('when a POST callback is published, then the receiver gets its body as JSON', async () => {
    await notifier();
    const target = await receiver();
    const body = { messageId: 'm-1', status: 'DELIVERED', at: '2026-11-22T10:00:00Z' };
    const req = callbackRequest(`${target.url}/dlr`, { body });
    await publishCallback(bus(), req);
    await deliveredRow(req);
    expect(target.received[0]?.method).toBe('POST');
    expect(target.received[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(target.received[0]?.body ?? '')).toEqual(body);
  });

  it('when a POST callback carries bodyText and headers, then the receiver gets those bytes and headers unchanged beside the signature', async () => {
    await notifier();
    const target = await receiver();
    // Spacing and key order JSON.stringify would not reproduce: a signature over it must hold.
    const bodyText = '{ "b":1,  "a":"\\u00e9t\u00e9" }';
    const req = callbackRequest(`${target.url}/hook`, {
      bodyText,
      headers: { 'X-Webhook-Signature': 'abc123' },
      origin: { service: 'rcs', kind: 'webhook' },
    });
    await publishCallback(bus(), req);
    await deliveredRow(req);
    expect(target.received[0]?.body).toBe(bodyText);
    expect(target.received[0]?.headers['content-type']).toBe('application/json');
    expect(target.received[0]?.headers['x-webhook-signature']).toBe('abc123');
    expect(target.received[0]?.headers['webhook-signature']).toMatch(/^v1,/);
  });

  it('when the same callbackId is published twice, then it is delivered once', async () => {
    await notifier();
    const target = await receiver();
    const req = callbackRequest(target.url, { body: { n: 1 } });
    await publishCallback(bus(), req);
    await publishCallback(bus(), req);
    await deliveredRow(req);
    await new Promise((r) => setTimeout(r, 300));
    expect(target.received).toHaveLength(1);
  });

  it('when a request is not a valid callback, then it is skipped and the next one still goes out', async () => {
    await notifier();
    const target = await receiver();
    // Written past the publish check, as a producer that skips it could.
    await bus().publishUnchecked(Topics.callbacks, [
      callbackMessage(callbackRequest('ftp://example.com/x')),
    ]);
    const req = callbackRequest(target.url);
    await publishCallback(bus(), req);
    await deliveredRow(req);
    expect(target.received).toHaveLength(1);
  });
});

describe('batch events', () => {
  it('when batch events are published, then the customer gets each event as the POST body to the callback URL with ?token=, in order', async () => {
    await notifier();
    const target = await receiver();
    const callback = { url: `${target.url}/batch-events`, token: 'secret-token' };
    const created = batchEventMessage(callback, 'batch.created');
    const started = batchEventMessage(callback, 'batch.processing_started');

    await bus().publish(Topics.batchEvents, [created, started]);

    await eventually(() => expect(target.received).toHaveLength(2));
    for (const [index, sent] of [created, started].entries()) {
      const got = target.received[index];
      expect(got?.method).toBe('POST');
      expect(got?.url).toBe('/batch-events?token=secret-token');
      expect(got?.headers['content-type']).toBe('application/json');
      expect(JSON.parse(got?.body ?? '')).toEqual((sent.value.payload as { event: object }).event);
    }
  });

  it('when a batch has no token or an event is delivered twice, then the POST has no query and goes out once', async () => {
    await notifier();
    const target = await receiver();
    const event = batchEventMessage({ url: `${target.url}/cb` }, 'batch.canceled');

    await bus().publish(Topics.batchEvents, [event]);
    await bus().publish(Topics.batchEvents, [event]);

    await eventually(() => expect(target.received).toHaveLength(1));
    // The row says delivered once the answer is recorded, a moment after the receiver has it.
    await deliveredRow({ callbackId: event.value.id });
    await new Promise((r) => setTimeout(r, 300));
    expect(target.received.map((r) => r.url)).toEqual(['/cb']);
  });
});

describe('retries', () => {
  it('when the receiver fails twice and then answers 200, then it took exactly 3 attempts', async () => {
    await notifier();
    const target = await receiver((_req, res, n) => res.writeHead(n <= 2 ? 503 : 200).end());
    const req = callbackRequest(target.url);
    await publishCallback(bus(), req);
    expect(await deliveredRow(req)).toMatchObject({ attempts: 3 });
    expect(target.received).toHaveLength(3);
  });

  it('when the receiver answers 400, then it gives up at once into callbacks.dlq.v1', async () => {
    await notifier();
    const target = await receiver((_req, res) => res.writeHead(400).end());
    const req = callbackRequest(target.url, { body: { a: 1 } });
    await publishCallback(bus(), req);
    await eventually(() => expect(deadLetters.of(req.callbackId)).toHaveLength(1));
    expect(deadLetters.of(req.callbackId)[0]).toMatchObject({
      callbackId: req.callbackId,
      accountId: req.accountId,
      url: req.url,
      body: { a: 1 },
      origin: req.origin,
      attempts: 1,
      lastError: 'HTTP 400',
    });
    expect(await rowOf(req.callbackId)).toMatchObject({ status: 'dead', attempts: 1 });
    expect(target.received).toHaveLength(1);
  });

  it('when the request says retryEveryFailure and the receiver answers 404 then 200, then it is retried and delivered', async () => {
    await notifier();
    const target = await receiver((_req, res, n) => res.writeHead(n === 1 ? 404 : 200).end());
    const req = callbackRequest(target.url, { body: { a: 1 }, retryEveryFailure: true });
    await publishCallback(bus(), req);
    expect(await deliveredRow(req)).toMatchObject({ attempts: 2 });
    expect(target.received).toHaveLength(2);
  });

  it('when the horizon has already passed, then it goes to callbacks.dlq.v1 without an attempt', async () => {
    await notifier();
    const target = await receiver();
    const req = callbackRequest(target.url, {
      giveUpAt: new Date(Date.now() - 1_000).toISOString(),
    });
    await publishCallback(bus(), req);
    await eventually(() => expect(deadLetters.of(req.callbackId)).toHaveLength(1));
    expect(deadLetters.of(req.callbackId)[0]).toMatchObject({
      attempts: 0,
      lastError: 'horizon passed before delivery',
    });
    expect(target.received).toHaveLength(0);
  });

  it('when the receiver keeps failing until the horizon, then it is retried and then dead-lettered with the last error', async () => {
    await notifier();
    const target = await receiver((_req, res) => res.writeHead(503).end());
    const req = callbackRequest(target.url, { giveUpAt: new Date(Date.now() + 600).toISOString() });
    await publishCallback(bus(), req);
    await eventually(() => expect(deadLetters.of(req.callbackId)).toHaveLength(1));
    const [letter] = deadLetters.of(req.callbackId);
    expect(letter?.lastError).toBe('HTTP 503');
    expect(letter?.attempts).toBeGreaterThanOrEqual(2);
    expect(letter?.attempts).toBe(target.received.length);
  });

  it('when the horizon comes from CALLBACK_HORIZON, then a failing callback is dead-lettered after it', async () => {
    await notifier({ CALLBACK_HORIZON: '300ms' });
    const target = await receiver((_req, res) => res.writeHead(500).end());
    const req = callbackRequest(target.url);
    await publishCallback(bus(), req);
    await eventually(() => expect(deadLetters.of(req.callbackId)).toHaveLength(1));
    expect(await rowOf(req.callbackId)).toMatchObject({ status: 'dead', last_error: 'HTTP 500' });
  });
});

describe('targets', () => {
  it('when the target is a private address and nothing allows it, then it is refused into the dead letters', async () => {
    await notifier({ CALLBACK_ALLOWED_HOSTS: 'receiver.example' });
    const target = await receiver();
    const req = callbackRequest(target.url);
    await publishCallback(bus(), req);
    await eventually(() => expect(deadLetters.of(req.callbackId)).toHaveLength(1));
    expect(deadLetters.of(req.callbackId)[0]).toMatchObject({
      attempts: 1,
      lastError: 'target address not allowed',
    });
    expect(target.received).toHaveLength(0);
  });

  it('when CALLBACK_ALLOW_PRIVATE_TARGETS is true, then a private target is delivered to', async () => {
    await notifier({
      CALLBACK_ALLOWED_HOSTS: 'receiver.example',
      CALLBACK_ALLOW_PRIVATE_TARGETS: 'true',
    });
    const target = await receiver();
    const req = callbackRequest(target.url);
    await publishCallback(bus(), req);
    await deliveredRow(req);
    expect(target.received).toHaveLength(1);
  });

  it('when many callbacks go to one slow target, then no more than the per-target limit are in flight', async () => {
    await notifier({ NOTIFIER_PER_TARGET_CONCURRENCY: '3' });
    const target = await receiver((_req, res) => {
      setTimeout(() => res.writeHead(200).end(), 120);
    });
    const requests = Array.from({ length: 12 }, () => callbackRequest(target.url));
    for (const req of requests) await publishCallback(bus(), req);
    await eventually(() => expect(target.received).toHaveLength(12));
    for (const req of requests) await deliveredRow(req);
    expect(target.maxConcurrent()).toBe(3);
  });
});

describe('restart', () => {
  it('when the notifier restarts on the same database, then pending retries and new requests are still delivered', async () => {
    const first = await notifier({ CALLBACK_RETRY_BASE: '600ms', CALLBACK_RETRY_MAX: '600ms' });
    // The retried callback fails twice, then succeeds; every other one succeeds at once.
    let retriedAttempts = 0;
    const target = await receiver((req, res) => {
      const isRetried = JSON.parse(req.body).retried === true;
      if (isRetried) retriedAttempts += 1;
      res.writeHead(isRetried && retriedAttempts <= 2 ? 503 : 200).end();
    });
    const retried = callbackRequest(target.url, { body: { retried: true } });
    await publishCallback(bus(), retried);
    await eventually(async () =>
      expect(await rowOf(retried.callbackId)).toMatchObject({ attempts: 1 }),
    );
    await first.stop();
    world.forgetLastCleanup();
    const whileDown = callbackRequest(target.url, { body: { whileDown: true } });
    await publishCallback(bus(), whileDown);
    await new Promise((r) => setTimeout(r, 100));
    expect(await rowOf(whileDown.callbackId)).toBeUndefined();

    await notifier({ CALLBACK_RETRY_BASE: '40ms', CALLBACK_RETRY_MAX: '40ms' });
    await deliveredRow(whileDown);
    expect(await deliveredRow(retried)).toMatchObject({ status: 'delivered' });
    const bodies = target.received.map((r) => JSON.parse(r.body));
    expect(bodies.filter((b) => b.retried)).toHaveLength(3);
    expect(bodies.filter((b) => b.whileDown)).toHaveLength(1);
  });
});

describe('loadNotifierConfig', () => {
  it('when only the secrets key is set, then the documented defaults apply', () => {
    expect(loadNotifierConfig({ CALLBACK_SECRETS_KEY: SECRETS_KEY })).toMatchObject({
      CALLBACK_TIMEOUT_MS: 10_000,
      CALLBACK_HORIZON: 24 * 3_600_000,
      CALLBACK_RETRY_BASE: 1_000,
      CALLBACK_RETRY_MAX: 600_000,
      CALLBACK_ALLOW_PRIVATE_TARGETS: false,
      NOTIFIER_POLL_MS: 250,
      NOTIFIER_PER_TARGET_CONCURRENCY: 4,
      NOTIFIER_CONSUMER_GROUP: 'notifier',
      CALLBACK_SECRET_GRACE: 24 * 3_600_000,
    });
  });

  it('when CALLBACK_SECRETS_KEY is missing or not 32 bytes, or the grace is over 7 days, then start-up is refused naming each and the key is not printed', () => {
    expect(() => loadNotifierConfig({})).toThrow(/CALLBACK_SECRETS_KEY: required, not set/);
    const bad = 'c2hvcnQta2V5';
    let message = '';
    try {
      loadNotifierConfig({ CALLBACK_SECRETS_KEY: bad, CALLBACK_SECRET_GRACE: '169h' });
    } catch (error) {
      message = String(error);
    }
    expect(message).toMatch(/CALLBACK_SECRETS_KEY: expected 32 bytes/);
    expect(message).toMatch(/CALLBACK_SECRET_GRACE: at most 7 days/);
    expect(message).not.toContain(bad);
  });

  it('when values are malformed, then every variable is named at once and the secret is not printed', () => {
    expect(() =>
      loadNotifierConfig({ CALLBACK_HORIZON: 'soon', NOTIFIER_PER_TARGET_CONCURRENCY: '0' }),
    ).toThrow(
      /CALLBACK_HORIZON[\s\S]*NOTIFIER_PER_TARGET_CONCURRENCY|NOTIFIER_PER_TARGET_CONCURRENCY[\s\S]*CALLBACK_HORIZON/,
    );
    expect(
      loadNotifierConfig({
        CALLBACK_SECRETS_KEY: SECRETS_KEY,
        CALLBACK_ALLOWED_HOSTS: 'a.example, b.example',
      }).CALLBACK_ALLOWED_HOSTS,
    ).toEqual(['a.example', 'b.example']);
  });
});
