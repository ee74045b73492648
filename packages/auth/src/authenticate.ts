import { UnauthorizedError } from '@msg/http';
import type { Request, RequestHandler } from 'express';
import passport from 'passport';
import { isStrategyFailureInfo } from './strategies/failure-normalizer.js';
import type { AuthFailure } from './types.js';

/**
 * A Passport instance of its own (never the global singleton), with the given strategies registered
 * under their keys: `createPassport({ basic: basicStrategy(verifier) })`.
 */
export function createPassport(
  strategies: Record<string, passport.Strategy>,
): passport.Authenticator {
  const instance = new passport.Passport();
  for (const [name, strategy] of Object.entries(strategies)) instance.use(name, strategy);
  return instance;
}

export interface AuthenticateOptions {
  /**
   * Builds the error for a failed authentication; by default a 401 UnauthorizedError carrying the
   * strategy's challenge. Interfaces with their own refusal shape use this.
   */
  onFailure?: (failure: AuthFailure, req: Request) => Error;
}

/**
 * Express middleware: authenticates with one strategy, sets `req.account`, and passes failures to
 * the service's error middleware as errors (never writes a response itself). Sessionless.
 */
export function authenticate(
  instance: passport.Authenticator,
  strategy: string,
  { onFailure }: AuthenticateOptions = {},
): RequestHandler {
  return (req, res, next) => {
    const handle: passport.AuthenticateCallback = (err, user, info) => {
      if (err) {
        next(err);
        return;
      }
      if (user) {
        req.account = user;
        // Every later log line of this request names the account (never its credentials).
        if (req.log) req.log = req.log.child({ accountId: user.id });
        next();
        return;
      }
      const failure: AuthFailure = { strategy, message: 'Authentication required' };
      if (isStrategyFailureInfo(info)) {
        failure.message = info.message;
        if (info.challenge !== undefined) failure.challenge = info.challenge;
      }
      next(
        onFailure
          ? onFailure(failure, req)
          : new UnauthorizedError(failure.message, failure.challenge),
      );
    };
    instance.authenticate(strategy, { session: false }, handle)(req, res, next);
  };
}
