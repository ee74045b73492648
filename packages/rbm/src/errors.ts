/**
 * A failed RBM call. Google answers errors as `{error: {code, message, status}}` where `status`
 * is the canonical gRPC name (INVALID_ARGUMENT, NOT_FOUND, RESOURCE_EXHAUSTED, ...).
 */
export class RbmError extends Error {
  override readonly name = 'RbmError';
  /** HTTP status; 0 when the platform was not reached (network error, timeout). */
  readonly httpStatus: number;
  /** Google's canonical status, or UNAVAILABLE / UNKNOWN when the body did not say. */
  readonly status: string;
  /** 429, 5xx and transport failures are worth retrying later; other 4xx are not. */
  readonly retryable: boolean;

  constructor(httpStatus: number, status: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.httpStatus = httpStatus;
    this.status = status;
    this.retryable = httpStatus === 0 || httpStatus === 429 || httpStatus >= 500;
  }
}

/** Canonical status names for answers whose body is not Google's error shape. */
const FALLBACK_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** Builds the RbmError for a non-2xx answer, reading Google's error body when there is one. */
export function rbmErrorFromResponse(httpStatus: number, rawBody: string): RbmError {
  const body = parseJson(rawBody);
  const error =
    typeof body === 'object' && body !== null && 'error' in body
      ? (body as { error: unknown }).error
      : undefined;
  const fields =
    typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const status =
    typeof fields.status === 'string' && fields.status !== ''
      ? fields.status
      : (FALLBACK_STATUS[httpStatus] ?? 'UNKNOWN');
  const message =
    typeof fields.message === 'string' && fields.message !== ''
      ? fields.message
      : `RBM answered HTTP ${httpStatus}`;
  return new RbmError(httpStatus, status, message);
}

/** The platform could not be reached: always retryable. */
export function rbmTransportError(cause: unknown): RbmError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new RbmError(0, 'UNAVAILABLE', `RBM platform unreachable: ${detail}`, { cause });
}
