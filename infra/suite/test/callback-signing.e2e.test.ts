import {
  type CallbackReceiver,
  eventually,
  headerRecord,
  type ReceivedCallback,
  startCallbackReceiver,
} from '@msg/testing';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type GatewayAccount, type Platform, startEmbedded } from './platform.js';
import { smsAccount } from './sms-account.js';

/**
 * Callback signatures as a customer checks them, on the embedded defaults: an SMS sent through
 * the gateway with a callback_url to a local receiver, its status callbacks verified with the
 * `standardwebhooks` package and the secret the account fetched through the gateway
 * (GET /v1/callbacks/signing-secret), then rotated (POST /v1/callbacks/signing-secret/rotate).
 */
let platform: Platform;
let receiver: CallbackReceiver;
let alice: GatewayAccount;
let bob: GatewayAccount;

beforeAll(async () => {
  platform = await startEmbedded();
  receiver = await startCallbackReceiver();
  alice = await smsAccount(platform, 'cbsigalice');
  bob = await smsAccount(platform, 'cbsigbob');
}, 180_000);

afterAll(async () => {
  await receiver?.close();
  await platform?.stop();
}, 60_000);

afterEach(() => {
  vi.useRealTimers();
});

interface SigningSecret {
  secret: string;
  created_at: string;
  previous_secret_expires_at: string | null;
}

async function signingSecret(account: GatewayAccount): Promise<string> {
  const res = await account.gateway.get<SigningSecret>('v1/callbacks/signing-secret');
  expect(res.statusCode).toBe(200);
  return res.body.secret;
}

const headersOf = (callback: ReceivedCallback) => headerRecord(callback.headers);

/** Sends an SMS whose status callbacks go to `path` and waits for its `delivered` callback. */
async function deliveredCallback(account: GatewayAccount, path: string, to: string) {
  const res = await account.gateway.post<{ messageId: string }>('v1/sms/send', {
    json: {
      to,
      from: 'ACME',
      message: 'Signed, sealed, delivered',
      callback_url: `${receiver.url}${path}`,
    },
  });
  expect(res.statusCode).toBe(202);
  return eventually(
    async () =>
      receiver.received.find(
        (r) => r.url.pathname === path && JSON.parse(r.body).status === 'delivered',
      ),
    'the delivered callback',
    30_000,
    100,
  );
}

describe('signed SMS callbacks through the whole platform', () => {
  it("when an SMS with a callback_url is delivered, then every status callback verifies with the account's secret fetched through the gateway, and with no other account's", async () => {
    const delivered = await deliveredCallback(alice, '/alice', '0701234561');
    const secret = await signingSecret(alice);
    expect(secret).toMatch(/^whsec_/);
    const mine = receiver.received.filter((r) => r.url.pathname === '/alice');
    expect(mine.length).toBeGreaterThanOrEqual(1);
    for (const callback of mine) {
      expect(new Webhook(secret).verify(callback.body, headersOf(callback))).toMatchObject({
        status: expect.any(String),
      });
    }
    expect(delivered.headers['webhook-id']).toEqual(expect.any(String));

    const bobSecret = await signingSecret(bob);
    expect(bobSecret).not.toBe(secret);
    expect(() => new Webhook(bobSecret).verify(delivered.body, headersOf(delivered))).toThrow(
      WebhookVerificationError,
    );
  });

  it('when a delivered callback is replayed six minutes later, then the verifier refuses it', async () => {
    const delivered = await deliveredCallback(alice, '/replayed', '0701234562');
    const verifier = new Webhook(await signingSecret(alice));
    expect(verifier.verify(delivered.body, headersOf(delivered))).toBeDefined();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 6 * 60_000);
    expect(() => verifier.verify(delivered.body, headersOf(delivered))).toThrow(
      'Message timestamp too old',
    );
  });

  it('when the account rotates its secret through the gateway, then the next callbacks verify with the new secret and, during the grace period, with the old one', async () => {
    const old = await signingSecret(alice);
    const bobBefore = await signingSecret(bob);
    const rotated = await alice.gateway.post<SigningSecret>('v1/callbacks/signing-secret/rotate', {
      json: { previous_secret_expires_in: 3600 },
    });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.body.secret).not.toBe(old);
    expect(rotated.body.previous_secret_expires_at).toEqual(expect.any(String));

    const delivered = await deliveredCallback(alice, '/rotated', '0701234563');
    expect(
      new Webhook(rotated.body.secret).verify(delivered.body, headersOf(delivered)),
    ).toBeDefined();
    expect(new Webhook(old).verify(delivered.body, headersOf(delivered))).toBeDefined();
    // Bob's secret is untouched by Alice's rotation.
    expect(await signingSecret(bob)).toBe(bobBefore);
  });

  it('when the signing secret is asked for without credentials or with wrong ones, then the gateway answers 401 from the notifier', async () => {
    const anonymous = await alice.gateway.get('v1/callbacks/signing-secret', {
      headers: { authorization: undefined },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Basic realm="Callbacks"');
    const wrong = await alice.gateway.get('v1/callbacks/signing-secret', {
      headers: { authorization: `Basic ${Buffer.from(`${alice.name}:nope`).toString('base64')}` },
    });
    expect(wrong.statusCode).toBe(401);
  });
});
