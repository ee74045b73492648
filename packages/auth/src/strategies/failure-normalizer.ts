import type { Request } from 'express';
import type passport from 'passport';

/**
 * What a normalised strategy passes to passport's `fail()`; `authenticate()` reads it back.
 * Exported for authenticate.ts only.
 */
export interface StrategyFailureInfo {
  message: string;
  challenge?: string;
}

function hasMessage(value: unknown): value is { message: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    'message' in value &&
    typeof value.message === 'string'
  );
}

/**
 * Wraps a passport strategy so that EVERY failure reaches `authenticate()` as one shape:
 * `{ message, challenge }`. Upstream strategies fail in three ways — a challenge string, a bare
 * 400 for a malformed header, or an info object — and a malformed header must still get a 401
 * with the scheme's challenge (specification part 5: missing or wrong credentials → 401 + challenge).
 *
 * Passport runs each request on `Object.create(registeredStrategy)` with its own success/fail
 * functions; we do the same one level down so concurrent requests never share callbacks.
 */
export function normalizeFailures(
  inner: passport.Strategy,
  { message, challenge }: { message: string; challenge?: string },
): passport.Strategy {
  const toFailure = (failure: unknown): StrategyFailureInfo => {
    const info: StrategyFailureInfo = { message };
    if (typeof failure === 'string') info.challenge = failure;
    else if (challenge !== undefined) info.challenge = challenge;
    if (hasMessage(failure)) info.message = failure.message;
    return info;
  };

  return {
    name: inner.name,
    authenticate(req: Request, options?: unknown) {
      const perRequest = Object.assign(Object.create(inner), {
        success: (user: Express.User, info?: object) => this.success(user, info),
        fail: (failure?: unknown) => this.fail(toFailure(failure), 401),
        error: (err: unknown) => this.error(err),
        pass: () => this.pass(),
        redirect: (url: string, status?: number) => this.redirect(url, status),
      });
      inner.authenticate.call(perRequest, req, options);
    },
  };
}

export function isStrategyFailureInfo(value: unknown): value is StrategyFailureInfo {
  if (!hasMessage(value)) return false;
  return (
    !('challenge' in value) || value.challenge === undefined || typeof value.challenge === 'string'
  );
}
