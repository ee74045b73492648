import type passport from 'passport';
import { Strategy as CustomStrategy } from 'passport-custom';
import type { CredentialVerifier } from '../credential-verifier.js';
import { normalizeFailures } from './failure-normalizer.js';

function singleHeader(value: string | string[] | undefined): string | undefined {
  // A repeated header is ambiguous about which key is meant; refuse rather than guess.
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `X-API-Key` + `X-Client-ID` on every request (the RCS interface). No WWW-Authenticate scheme exists for it. */
export function apiKeyStrategy(verifier: CredentialVerifier): passport.Strategy {
  const inner = new CustomStrategy((req, done) => {
    const apiKey = singleHeader(req.headers['x-api-key']);
    const clientId = singleHeader(req.headers['x-client-id']);
    if (!apiKey || !clientId) {
      done(null, false, { message: 'X-API-Key and X-Client-ID headers are required' });
      return;
    }
    verifier.verifyApiKey(clientId, apiKey).then(
      (account) => done(null, account ?? false),
      (err: unknown) => done(err),
    );
  });
  return normalizeFailures(inner, { message: 'Missing or invalid API key' });
}
