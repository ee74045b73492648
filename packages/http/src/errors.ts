/**
 * The error vocabulary shared by every service. Handlers throw these; the one error middleware of a
 * service renders them in that interface's own format. `code` values are stable API.
 */
export interface ErrorDetail {
  /** Where the problem is, e.g. ['body', 'to']. */
  loc: string[];
  /** What rule was broken, in words. */
  msg: string;
  /** Machine-readable rule, e.g. 'missing', 'pattern', 'maxLength'. */
  type: string;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends HttpError {
  constructor(message: string, details: ErrorDetail[] = []) {
    super(400, 'VALIDATION_ERROR', message, details);
  }

  /** One field broke one rule: the message names both. */
  static field(loc: string[], type: string, msg: string): ValidationError {
    return ValidationError.of([{ loc, msg, type }]);
  }

  /** Every broken rule at once: the message names each field and rule. */
  static of(details: ErrorDetail[]): ValidationError {
    return new ValidationError(
      details.map((detail) => `${detail.loc.join('.')}: ${detail.msg}`).join('; '),
      details,
    );
  }
}

export class MalformedRequestError extends HttpError {
  constructor(message: string) {
    super(400, 'MALFORMED_REQUEST', message);
  }
}

export class UnauthorizedError extends HttpError {
  /** `challenge` becomes the WWW-Authenticate header, e.g. 'Basic realm="messaging"'. */
  constructor(message = 'Authentication required', challenge?: string) {
    super(401, 'UNAUTHORIZED', message, [], challenge ? { 'WWW-Authenticate': challenge } : {});
  }
}

export class ForbiddenError extends HttpError {
  constructor(message = 'Forbidden') {
    super(403, 'FORBIDDEN', message);
  }
}

export class NotFoundError extends HttpError {
  constructor(message = 'Not found') {
    super(404, 'NOT_FOUND', message);
  }
}

export class MethodNotAllowedError extends HttpError {
  constructor(allowed: string[], message = 'Method not allowed') {
    super(405, 'METHOD_NOT_ALLOWED', message, [], { Allow: allowed.join(', ') });
  }
}

export class ConflictError extends HttpError {
  constructor(message: string) {
    super(409, 'CONFLICT', message);
  }
}

export class NotAcceptableError extends HttpError {
  constructor(message = 'None of the accepted media types can be produced') {
    super(406, 'NOT_ACCEPTABLE', message);
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(message = 'Request body too large') {
    super(413, 'PAYLOAD_TOO_LARGE', message);
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor(message: string) {
    super(415, 'UNSUPPORTED_MEDIA_TYPE', message);
  }
}

export class RateLimitedError extends HttpError {
  constructor(
    readonly retryAfterSeconds: number,
    message = 'Rate limit exceeded',
  ) {
    super(429, 'RATE_LIMITED', message, [], {
      'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    });
  }
}

export class UpstreamUnavailableError extends HttpError {
  constructor(message = 'Service temporarily unavailable', retryAfterSeconds?: number) {
    super(
      503,
      'SERVICE_UNAVAILABLE',
      message,
      [],
      retryAfterSeconds ? { 'Retry-After': String(retryAfterSeconds) } : {},
    );
  }
}

/** The document describes the operation but this service has no handler for it (yet). */
export class NotImplementedError extends HttpError {
  constructor(message = 'Not implemented') {
    super(501, 'NOT_IMPLEMENTED', message);
  }
}

export class BadGatewayError extends HttpError {
  constructor(message: string) {
    super(502, 'BAD_GATEWAY', message);
  }
}

export class GatewayTimeoutError extends HttpError {
  constructor(message: string) {
    super(504, 'GATEWAY_TIMEOUT', message);
  }
}

export class InternalError extends HttpError {
  /**
   * `errorId` ties the response to the log line carrying the real error. `debugStack` is that
   * error's stack, set only when the service exposes stacks (development); never in production.
   */
  constructor(
    readonly errorId: string,
    readonly debugStack?: string,
  ) {
    super(500, 'INTERNAL_ERROR', `Unexpected error; quote error id ${errorId} to support`);
  }
}
