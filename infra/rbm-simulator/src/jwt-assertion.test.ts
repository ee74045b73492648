import { createSign, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  assertionProblem,
  GOOGLE_TOKEN_URL,
  RBM_SCOPE,
  serviceAccountFrom,
} from './jwt-assertion.js';

const EMAIL = 'agent@sim.iam.gserviceaccount.com';
const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const { privateKey } = pair();
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const NOW = 1_800_000_000;

function jwt(claims: Record<string, unknown>, key = privateKey, alg = 'RS256') {
  const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const signingInput = `${enc({ alg, typ: 'JWT' })}.${enc(claims)}`;
  const signature = createSign('RSA-SHA256').update(signingInput).sign(key).toString('base64url');
  return `${signingInput}.${signature}`;
}

const good = { iss: EMAIL, scope: RBM_SCOPE, aud: GOOGLE_TOKEN_URL, iat: NOW, exp: NOW + 3600 };
const account = serviceAccountFrom(EMAIL, pem);
const check = (assertion: string) =>
  assertionProblem(assertion, account, [GOOGLE_TOKEN_URL, 'http://sim/token'], NOW);

describe('assertionProblem', () => {
  it('accepts an assertion signed by the service account, for Google or our own audience', () => {
    expect(check(jwt(good))).toBeUndefined();
    expect(check(jwt({ ...good, aud: 'http://sim/token' }))).toBeUndefined();
  });

  it('accepts a public key PEM as the configured key', () => {
    const publicPem = account.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const fromPublic = serviceAccountFrom(EMAIL, publicPem);
    expect(assertionProblem(jwt(good), fromPublic, [GOOGLE_TOKEN_URL], NOW)).toBeUndefined();
  });

  it.each([
    ['signed with another key', jwt(good, pair().privateKey), 'invalid signature'],
    ['another issuer', jwt({ ...good, iss: 'someone@else' }), 'unknown issuer'],
    [
      'without the RBM scope',
      jwt({ ...good, scope: 'https://www.googleapis.com/auth/cloud-platform' }),
      'scope',
    ],
    ['another audience', jwt({ ...good, aud: 'https://evil/token' }), 'wrong audience'],
    ['expired', jwt({ ...good, iat: NOW - 7200, exp: NOW - 3600 }), 'expired'],
    ['valid for over an hour', jwt({ ...good, exp: NOW + 7200 }), 'over one hour'],
    ['not RS256', jwt(good, privateKey, 'HS256'), 'RS256'],
    ['not a JWT', 'abc.def', 'not a JWT'],
  ])('refuses an assertion %s', (_name, assertion, problem) => {
    expect(check(assertion)).toContain(problem);
  });
});
