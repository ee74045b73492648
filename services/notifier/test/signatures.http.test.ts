import { randomBytes } from 'node:crypto';
import { createSecretBox } from '@msg/auth';
import { Topics } from '@msg/contracts';
import { headerRecord } from '@msg/testing';
import { generateSigningSecret } from '@msg/webhooks';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { insertCallback } from '../src/callback-store.js';
import type { Notifier } from '../src/service.js';
import { PASSWORD, useNotifierHarness } from './harness.js';
import type { ReceivedRequest } from './receiver.js';
import { batchEventMessage, callbackRequest, eventually, publishCallback } from './support.js';

/**
 * Every callback is signed by the Standard Webhooks scheme with its account's own secret, and
 * checked here only with the `standardwebhooks` package's verifier, as a customer would, with the
 * secret the account fetches from the API.
 */
const world = useNotifierHarness();

afterEach(() => {
  vi.useRealTimers();
});

/** The received headers as the verifier takes them. */
const headersOf = (req: ReceivedRequest | undefined) => headerRecord(req?.headers ?? {});

async function secretOf(service: Notifier, name: string): Promise<string> {
  const res = await request(service.app)
    .get('/v1/callbacks/signing-secret')
    .auth(name, PASSWORD)
    .expect(200);
  return res.body.secret;
}

async function rotate(service: Notifier, name: string, body: object = {}) {
  const res = await request(service.app)
    .post('/v1/callbacks/signing-secret/rotate')
    .auth(name, PASSWORD)
    .send(body)
    .expect(200);
  return res.body as { secret: string; previous_secret_expires_at: string | null };
}

/** Publishes a POST callback of `accountId` and waits until the receiver has it. */
async function delivered(url: string, accountId: string, body: object = { n: 1 }) {
  const req = callbackRequest(url, { accountId, body });
  await publishCallback(world.bus(), req);
  await world.deliveredRow(req.callbackId);
  return req;
}

describe('signed callbacks', () => {
  it("when an account's POST callback is delivered, then its webhook-id, webhook-timestamp and webhook-signature verify with the secret the account fetches", async () => {
    const service = await world.notifier();
    const target = await world.receiver();
    const account = await world.account();
    const req = await delivered(target.url, account.id, { messageId: 'm-1', status: 'delivered' });

    const [got] = target.received;
    expect(got?.headers['webhook-id']).toBe(req.callbackId);
    expect(Number(got?.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -1);
    expect(got?.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    const secret = await secretOf(service, account.name);
    expect(new Webhook(secret).verify(got?.body ?? '', headersOf(got))).toEqual({
      messageId: 'm-1',
      status: 'delivered',
    });
  });

  it('when two accounts get the same callback, then the signatures differ and each verifies only with its own secret', async () => {
    const service = await world.notifier();
    const target = await world.receiver();
    const [first, second] = [await world.account(), await world.account()];
    await delivered(`${target.url}/a`, first.id);
    await delivered(`${target.url}/b`, second.id);

    const [toFirst, toSecond] = [
      target.received.find((r) => r.url === '/a'),
      target.received.find((r) => r.url === '/b'),
    ];
    const [firstSecret, secondSecret] = [
      await secretOf(service, first.name),
      await secretOf(service, second.name),
    ];
    expect(firstSecret).not.toBe(secondSecret);
    expect(toFirst?.body).toBe(toSecond?.body);
    expect(toFirst?.headers['webhook-signature']).not.toBe(toSecond?.headers['webhook-signature']);
    expect(new Webhook(firstSecret).verify(toFirst?.body ?? '', headersOf(toFirst))).toBeDefined();
    expect(
      new Webhook(secondSecret).verify(toSecond?.body ?? '', headersOf(toSecond)),
    ).toBeDefined();
    // One customer's secret cannot vouch for another customer's callback.
    expect(() =>
      new Webhook(firstSecret).verify(toSecond?.body ?? '', headersOf(toSecond)),
    ).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secondSecret).verify(toFirst?.body ?? '', headersOf(toFirst))).toThrow(
      WebhookVerificationError,
    );
  });

  it('when a signed callback is replayed more than five minutes later, then the verifier refuses it', async () => {
    const service = await world.notifier();
    const target = await world.receiver();
    const account = await world.account();
    await delivered(target.url, account.id);
    const [got] = target.received;
    const verifier = new Webhook(await secretOf(service, account.name));
    expect(verifier.verify(got?.body ?? '', headersOf(got))).toEqual({ n: 1 });

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 6 * 60_000);
    expect(() => verifier.verify(got?.body ?? '', headersOf(got))).toThrow(
      'Message timestamp too old',
    );
    // Nor can the replayer move the timestamp: it is signed.
    const now = String(Math.floor(Date.now() / 1000));
    expect(() =>
      verifier.verify(got?.body ?? '', { ...headersOf(got), 'webhook-timestamp': now }),
    ).toThrow('No matching signature found');
  });

  it('when a GET callback is delivered, then its signature covers the query string as received', async () => {
    const service = await world.notifier();
    const target = await world.receiver();
    const account = await world.account();
    const req = callbackRequest(`${target.url}/voice?token=t`, {
      accountId: account.id,
      method: 'GET',
      query: { TransactionId: 'tx-1', Result: '1', ExternalReferenceId: 'hej då' },
      origin: { service: 'voice', kind: 'delivery-report' },
    });
    await publishCallback(world.bus(), req);
    await world.deliveredRow(req.callbackId);

    const [got] = target.received;
    const query = got?.url.split('?')[1] ?? '';
    expect(query.split('&').sort()).toEqual(
      ['token=t', 'TransactionId=tx-1', 'Result=1', 'ExternalReferenceId=hej%20d%C3%A5'].sort(),
    );
    const verifier = new Webhook(await secretOf(service, account.name));
    expect(verifier.verify(query, headersOf(got), { jsonParse: false })).toBeUndefined();
    expect(() =>
      verifier.verify(query.replace('Result=1', 'Result=2'), headersOf(got), { jsonParse: false }),
    ).toThrow('No matching signature found');
  });

  it('when a callback is retried, then every attempt carries the same webhook-id and its own valid signature', async () => {
    const service = await world.notifier();
    const target = await world.receiver((_req, res, n) => res.writeHead(n === 1 ? 503 : 204).end());
    const account = await world.account();
    const req = await delivered(target.url, account.id);
    expect(target.received).toHaveLength(2);
    const verifier = new Webhook(await secretOf(service, account.name));
    for (const attempt of target.received) {
      expect(attempt.headers['webhook-id']).toBe(req.callbackId);
      expect(verifier.verify(attempt.body, headersOf(attempt))).toEqual({ n: 1 });
    }
  });

  it("when a batch event is delivered, then it is signed with the batch's account's secret", async () => {
    const service = await world.notifier();
    const target = await world.receiver();
    const account = await world.account();
    const message = batchEventMessage(
      { url: `${target.url}/batch`, token: 'tok' },
      'batch.created',
    );
    const payload = message.value.payload as { accountId: string };
    payload.accountId = account.id;
    await world.bus().publish(Topics.batchEvents, [message]);
    await eventually(() => expect(target.received).toHaveLength(1));
    const [got] = target.received;
    const verifier = new Webhook(await secretOf(service, account.name));
    expect(verifier.verify(got?.body ?? '', headersOf(got))).toMatchObject({
      event_type: 'batch.created',
    });
  });
});

describe('rotation', () => {
  it('when the secret is rotated, then callbacks carry two signatures and both secrets verify during the grace period, and the old one is refused after it', async () => {
    const service = await world.notifier();
    const target = await world.receiver();
    const account = await world.account();
    const old = await secretOf(service, account.name);
    const rotated = await rotate(service, account.name, { previous_secret_expires_in: 2 });
    expect(rotated.secret).not.toBe(old);

    await delivered(`${target.url}/during`, account.id);
    const during = target.received.find((r) => r.url === '/during');
    expect(String(during?.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(new Webhook(rotated.secret).verify(during?.body ?? '', headersOf(during))).toBeDefined();
    expect(new Webhook(old).verify(during?.body ?? '', headersOf(during))).toBeDefined();

    // The grace period ends at previous_secret_expires_at.
    const endsIn = Date.parse(rotated.previous_secret_expires_at ?? '') - Date.now();
    await new Promise((r) => setTimeout(r, Math.max(0, endsIn) + 100));
    await delivered(`${target.url}/after`, account.id);
    const after = target.received.find((r) => r.url === '/after');
    expect(String(after?.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(new Webhook(rotated.secret).verify(after?.body ?? '', headersOf(after))).toBeDefined();
    expect(() => new Webhook(old).verify(after?.body ?? '', headersOf(after))).toThrow(
      'No matching signature found',
    );
  });

  it('when the secret is rotated with previous_secret_expires_in 0, then the old secret stops signing at once', async () => {
    const service = await world.notifier();
    const target = await world.receiver();
    const account = await world.account();
    const old = await secretOf(service, account.name);
    const rotated = await rotate(service, account.name, { previous_secret_expires_in: 0 });
    expect(rotated.previous_secret_expires_at).toBeNull();

    await delivered(target.url, account.id);
    const [got] = target.received;
    expect(new Webhook(rotated.secret).verify(got?.body ?? '', headersOf(got))).toBeDefined();
    expect(() => new Webhook(old).verify(got?.body ?? '', headersOf(got))).toThrow(
      'No matching signature found',
    );
  });

  it('when the secret is rotated twice, then only the last two sign: the first stops at once', async () => {
    const service = await world.notifier();
    const target = await world.receiver();
    const account = await world.account();
    const first = await secretOf(service, account.name);
    const second = (await rotate(service, account.name)).secret;
    const third = (await rotate(service, account.name)).secret;

    await delivered(target.url, account.id);
    const [got] = target.received;
    expect(new Webhook(third).verify(got?.body ?? '', headersOf(got))).toBeDefined();
    expect(new Webhook(second).verify(got?.body ?? '', headersOf(got))).toBeDefined();
    expect(() => new Webhook(first).verify(got?.body ?? '', headersOf(got))).toThrow(
      WebhookVerificationError,
    );
  });
});

describe('without a usable secret', () => {
  it("when an account's stored secret cannot be opened, then its callback is held, never sent unsigned, and another account's in the same claim still goes out", async () => {
    const target = await world.receiver();
    const [damaged, healthy] = [await world.account(), await world.account()];
    const first = await world.notifier();
    await secretOf(first, damaged.name);
    await secretOf(first, healthy.name);
    await first.stop();
    world.forgetLastCleanup();
    // A value sealed under another key, as after a wrong CALLBACK_SECRETS_KEY.
    await world
      .pool()
      .query(`UPDATE "notifier"."signing_secret" SET "secret" = $2 WHERE "account_id" = $1`, [
        damaged.id,
        createSecretBox(randomBytes(32)).seal(generateSigningSecret()),
      ]);
    // Both stored while no notifier runs: the next one claims them together.
    const held = callbackRequest(`${target.url}/held`, { accountId: damaged.id, body: { n: 1 } });
    const sent = callbackRequest(`${target.url}/sent`, { accountId: healthy.id, body: { n: 2 } });
    for (const request of [held, sent]) await insertCallback(world.pool(), request, 60_000);

    await world.notifier();
    await world.deliveredRow(sent.callbackId);
    await new Promise((r) => setTimeout(r, 300));
    expect(target.received.map((r) => r.url)).toEqual(['/sent']);
    expect(await world.rowOf(held.callbackId)).toMatchObject({ status: 'pending', attempts: 0 });
    await world
      .pool()
      .query('DELETE FROM "notifier"."callback" WHERE "callback_id" = $1', [held.callbackId]);
  });
});

describe('at rest', () => {
  it('when a secret is stored, then the table holds it sealed (AES-256-GCM), never in clear', async () => {
    const service = await world.notifier();
    const account = await world.account();
    const secret = await secretOf(service, account.name);
    await rotate(service, account.name);
    const { rows } = await world
      .pool()
      .query<{ secret: string; previous_secret: string }>(
        'SELECT "secret", "previous_secret" FROM "notifier"."signing_secret" WHERE "account_id" = $1',
        [account.id],
      );
    const stored = `${rows[0]?.secret} ${rows[0]?.previous_secret}`;
    expect(rows[0]?.secret).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(stored).not.toContain(secret.slice('whsec_'.length));
    expect(stored).not.toContain('whsec_');
  });
});
