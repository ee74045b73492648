import {
  type CredentialVerifier,
  ipAllowed,
  type JwtService,
  type RequestRateLimiter,
} from '@msg/auth';
import type { operations } from '@msg/contracts/batch';
import { ForbiddenError, RateLimitedError, UnauthorizedError } from '@msg/http';
import type { RequestHandler } from 'express';

export interface CreateAccessTokenDeps {
  verifier: CredentialVerifier;
  jwt: JwtService;
  limiter: RequestRateLimiter;
}

/**
 * POST /v1/oauth/token — client-credentials grant (specification part 5): client_id is the SMS
 * account name, client_secret its API key. Answers a JWT the batch operations accept as bearer.
 */
type Body = operations['createAccessToken']['requestBody']['content']['application/json'];

export function createAccessToken({
  verifier,
  jwt,
  limiter,
}: CreateAccessTokenDeps): RequestHandler<object, unknown, Body> {
  return async (req, res) => {
    const { client_id, client_secret } = req.body;
    const account = await verifier.verifyApiKey(client_id, client_secret);
    if (!account) throw new UnauthorizedError('invalid client_id or client_secret');
    req.log = req.log.child({ accountId: account.id });
    if (account.status !== 'active') throw new ForbiddenError('account is disabled');
    if (!account.permissions.includes('batch_sms')) {
      throw new ForbiddenError('batch SMS is not enabled for this account');
    }
    if (!ipAllowed(account, req.ip ?? '')) {
      throw new ForbiddenError('calling address is not in the account IP allow-list');
    }
    const verdict = await limiter.take(`token:${account.id}`, account.rateLimit);
    if (!verdict.allowed) throw new RateLimitedError(verdict.retryAfterSeconds);
    const { token, expiresIn } = jwt.sign(account);
    // RFC 6749 §5.1: token answers must not be cached.
    res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    res.json({ access_token: token, token_type: 'bearer', expires_in: expiresIn });
  };
}
