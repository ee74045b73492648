import { createHmac } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  generateSigningSecret,
  signatureHeaders,
  signedContent,
  WEBHOOK_SIGNATURE_HEADER,
} from './standard-webhooks.js';

const body = '{"messageId":"m-1","status":"delivered"}';

describe('generateSigningSecret', () => {
  it('when secrets are generated, then each is whsec_ and base64 of 32 random bytes', () => {
    const secrets = new Set(Array.from({ length: 20 }, generateSigningSecret));
    expect(secrets.size).toBe(20);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    }
  });
});

describe('signatureHeaders', () => {
  it('when one secret signs, then the headers verify with the standardwebhooks verifier and the signature is v1,<base64 HMAC-SHA256 of id.timestamp.body>', () => {
    const secret = generateSigningSecret();
    const at = new Date();
    const headers = signatureHeaders({ id: 'cb-1', secrets: [secret] }, body, at);
    const timestamp = Math.floor(at.getTime() / 1000);
    expect(headers).toEqual({
      'webhook-id': 'cb-1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': `v1,${createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
        .update(`cb-1.${timestamp}.${body}`)
        .digest('base64')}`,
    });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('when two secrets sign (a rotation), then the signatures are space-separated and each secret alone verifies, a third does not', () => {
    const [current, previous] = [generateSigningSecret(), generateSigningSecret()];
    const headers = signatureHeaders({ id: 'cb-2', secrets: [current, previous] }, body);
    expect(headers[WEBHOOK_SIGNATURE_HEADER]).toMatch(/^v1,\S+ v1,\S+$/);
    expect(new Webhook(current).verify(body, headers)).toBeDefined();
    expect(new Webhook(previous).verify(body, headers)).toBeDefined();
    expect(() => new Webhook(generateSigningSecret()).verify(body, headers)).toThrow(
      WebhookVerificationError,
    );
  });

  it('when the body, the id or the timestamp is changed, then the signature does not verify', () => {
    const secret = generateSigningSecret();
    const headers = signatureHeaders({ id: 'cb-3', secrets: [secret] }, body);
    const verifier = new Webhook(secret);
    expect(() => verifier.verify(body.replace('delivered', 'failed'), headers)).toThrow(
      'No matching signature found',
    );
    expect(() => verifier.verify(body, { ...headers, 'webhook-id': 'cb-4' })).toThrow(
      'No matching signature found',
    );
    const earlier = String(Number(headers['webhook-timestamp']) - 1);
    expect(() => verifier.verify(body, { ...headers, 'webhook-timestamp': earlier })).toThrow(
      'No matching signature found',
    );
  });

  it('when a signed callback is replayed after more than five minutes, then the verifier refuses its timestamp', () => {
    const secret = generateSigningSecret();
    const headers = signatureHeaders(
      { id: 'cb-5', secrets: [secret] },
      body,
      new Date(Date.now() - 6 * 60_000),
    );
    expect(() => new Webhook(secret).verify(body, headers)).toThrow('Message timestamp too old');
  });

  it('when no secret is given, then it refuses to sign rather than send unsigned', () => {
    expect(() => signatureHeaders({ id: 'cb-6', secrets: [] }, body)).toThrow(RangeError);
  });
});

describe('signedContent', () => {
  it('when a POST has a body, then the body is signed, not its query', () => {
    expect(signedContent('POST', new URL('https://x.example/cb?token=t'), body)).toBe(body);
    expect(signedContent('POST', new URL('https://x.example/cb?token=t'), undefined)).toBe('');
  });

  it('when a GET has no body, then its query string as sent is signed, without the ?', () => {
    expect(
      signedContent(
        'GET',
        new URL('https://x.example/cb?Msg=hej%20d%C3%A5&InResponseTo=t1'),
        undefined,
      ),
    ).toBe('Msg=hej%20d%C3%A5&InResponseTo=t1');
    expect(signedContent('GET', new URL('https://x.example/cb'), undefined)).toBe('');
  });
});
