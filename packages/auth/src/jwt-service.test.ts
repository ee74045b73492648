import { createHmac } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { createJwtService, InvalidTokenError, type JwtServiceOptions } from './jwt-service.js';

const KEY_A = { kid: 'a', secret: 'a'.repeat(32) };
const KEY_B = { kid: 'b', secret: 'b'.repeat(40) };
const ACCOUNT = { id: 'acct-1', name: 'acme' };

function service(overrides: Partial<JwtServiceOptions> = {}) {
  return createJwtService({
    issuer: 'https://auth.example',
    audience: 'batch',
    keys: [KEY_A],
    activeKid: 'a',
    ttlSeconds: 3600,
    ...overrides,
  });
}

function expectInvalid(fn: () => unknown, reason: 'expired' | 'invalid') {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(InvalidTokenError);
  expect(caught).toMatchObject({ reason });
}

describe('createJwtService', () => {
  it('when a token is signed, then it verifies to the account claims with the active kid in its header', () => {
    const jwts = service({ now: () => 1_700_000_000_000 });
    const { token, expiresIn } = jwts.sign(ACCOUNT, { scope: ['sms', 'batch_sms'] });

    const claims = jwts.verify(token);

    expect(expiresIn).toBe(3600);
    expect(claims).toMatchObject({
      sub: 'acct-1',
      name: 'acme',
      scope: 'sms batch_sms',
      iss: 'https://auth.example',
      aud: 'batch',
      iat: 1_700_000_000,
      exp: 1_700_003_600,
    });
    expect(jwt.decode(token, { complete: true })?.header).toMatchObject({ alg: 'HS256', kid: 'a' });
  });

  it('when the token has expired beyond the clock tolerance, then it is refused as expired', () => {
    let now = 1_700_000_000_000;
    const jwts = service({ ttlSeconds: 60, clockToleranceSeconds: 5, now: () => now });
    const { token } = jwts.sign(ACCOUNT);

    now += 64_000;
    expect(jwts.verify(token).sub).toBe('acct-1');
    now += 2_000;
    expectInvalid(() => jwts.verify(token), 'expired');
  });

  it('when the audience differs, then the token is refused', () => {
    const { token } = service({ audience: 'rcs' }).sign(ACCOUNT);

    expectInvalid(() => service().verify(token), 'invalid');
  });

  it('when the issuer differs, then the token is refused', () => {
    const { token } = service({ issuer: 'https://evil.example' }).sign(ACCOUNT);

    expectInvalid(() => service().verify(token), 'invalid');
  });

  it('when the kid is unknown, then the token is refused', () => {
    const { token } = service({ keys: [KEY_B], activeKid: 'b' }).sign(ACCOUNT);

    expectInvalid(() => service().verify(token), 'invalid');
  });

  it('when the token has no kid, then it is refused', () => {
    const token = jwt.sign({ sub: 'x', name: 'x' }, KEY_A.secret, {
      algorithm: 'HS256',
      issuer: 'https://auth.example',
      audience: 'batch',
      expiresIn: 60,
    });

    expectInvalid(() => service().verify(token), 'invalid');
  });

  it('when the payload is tampered with, then the signature no longer matches', () => {
    const jwts = service();
    const [header, payload, signature] = jwts.sign(ACCOUNT).token.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString(
      'base64url',
    );

    expectInvalid(() => jwts.verify(`${header}.${forged}.${signature}`), 'invalid');
  });

  it('when the token claims alg "none", then it is refused', () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT', kid: 'a' })).toString(
      'base64url',
    );
    const now = Math.floor(Date.now() / 1000);
    const payload = Buffer.from(
      JSON.stringify({
        sub: 'x',
        name: 'x',
        iss: 'https://auth.example',
        aud: 'batch',
        iat: now,
        exp: now + 60,
        jti: 'j',
      }),
    ).toString('base64url');

    expectInvalid(() => service().verify(`${header}.${payload}.`), 'invalid');
  });

  it('when a correctly signed token lacks exp, then it is refused', () => {
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: 'a' })).toString(
      'base64url',
    );
    const payload = Buffer.from(
      JSON.stringify({
        sub: 'x',
        name: 'x',
        iss: 'https://auth.example',
        aud: 'batch',
        iat: 1,
        jti: 'j',
      }),
    ).toString('base64url');
    const signature = createHmac('sha256', KEY_A.secret)
      .update(`${header}.${payload}`)
      .digest('base64url');

    expectInvalid(() => service().verify(`${header}.${payload}.${signature}`), 'invalid');
  });

  it('when the key rotates, then old tokens verify while the old key is configured and fail once it is removed', () => {
    const { token: oldToken } = service({ keys: [KEY_A], activeKid: 'a' }).sign(ACCOUNT);
    const rotated = service({ keys: [KEY_A, KEY_B], activeKid: 'b' });
    const { token: newToken } = rotated.sign(ACCOUNT);

    expect(jwt.decode(newToken, { complete: true })?.header.kid).toBe('b');
    expect(rotated.verify(oldToken).sub).toBe('acct-1');
    expect(rotated.verify(newToken).sub).toBe('acct-1');

    const retired = service({ keys: [KEY_B], activeKid: 'b' });
    expectInvalid(() => retired.verify(oldToken), 'invalid');
    expect(retired.verify(newToken).sub).toBe('acct-1');
  });

  it('when the token is garbage or huge, then it is refused without throwing anything else', () => {
    expectInvalid(() => service().verify('not-a-jwt'), 'invalid');
    expectInvalid(() => service().verify('a'.repeat(5000)), 'invalid');
  });

  const b64 = (text: string) => Buffer.from(text).toString('base64url');
  it.each([
    ['a payload that is not JSON under typ JWT', 'eyJ0eXAiOiJKV1QifQ.bm90IGpzb24.x'],
    [
      'a payload that is not JSON under a known kid',
      `${b64('{"typ":"JWT","alg":"HS256","kid":"a"}')}.${b64('not json')}.x`,
    ],
    ['a payload that is not base64', `${b64('{"typ":"JWT","kid":"a"}')}.!!!$$.x`],
    ['a header that is not JSON', `${b64('{typ:JWT')}.${b64('{"sub":"x"}')}.x`],
    ['alg none', `${b64('{"typ":"JWT","alg":"none","kid":"a"}')}.${b64('{"sub":"acct-1"}')}.`],
    ['empty parts', '..'],
    ['a JSON array as header', `${b64('[1]')}.${b64('{}')}.x`],
    ['a numeric kid', `${b64('{"typ":"JWT","alg":"HS256","kid":1}')}.${b64('{}')}.x`],
  ])('when the token has %s, then it is refused as invalid', (_case, token) => {
    expectInvalid(() => service().verify(token), 'invalid');
  });

  it.each([
    ['a short secret', { keys: [{ kid: 'a', secret: 'short' }] }],
    ['an active kid that is not configured', { activeKid: 'z' }],
    ['a kid configured twice', { keys: [KEY_A, { ...KEY_B, kid: 'a' }] }],
    ['a non-positive ttl', { ttlSeconds: 0 }],
  ])('when configured with %s, then construction fails', (_case, overrides) => {
    expect(() => service(overrides)).toThrow();
  });
});
