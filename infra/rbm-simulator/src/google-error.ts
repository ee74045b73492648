import type { Response } from 'express';

/** HTTP status of each canonical Google error status the simulator answers with. */
const HTTP_OF = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type GoogleStatus = keyof typeof HTTP_OF;

/** Answers in Google's error shape: `{error: {code, message, status}}`. */
export function sendGoogleError(res: Response, status: GoogleStatus, message: string): void {
  const code = HTTP_OF[status];
  res.status(code).json({ error: { code, message, status } });
}

export function isGoogleStatus(value: unknown): value is GoogleStatus {
  return typeof value === 'string' && value in HTTP_OF;
}
