import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

/** A strong validator of the exact body bytes: sha256, base64url, quoted. */
export function strongEtag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url')}"`;
}

/**
 * RFC 9110 §13.1.2: `*` matches any current representation; otherwise the list is compared with
 * the weak comparison (a `W/` prefix is ignored).
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return (header.match(/(?:W\/)?"[^"]*"/g) ?? []).some(
    (candidate) => candidate.replace(/^W\//, '') === opaque,
  );
}

/**
 * Cache-Control of a view answer (spec 4.7): `private, no-store` when the answer is findings only
 * or a part has valid_until null; `private, no-cache` once the earliest valid_until has passed;
 * else `private, max-age=<seconds until the earliest valid_until>`.
 */
export function cacheControl(
  validUntils: (string | null)[],
  findingsOnly: boolean,
  now: Date,
): string {
  if (findingsOnly || validUntils.some((value) => value === null)) return 'private, no-store';
  const earliest = Math.min(...validUntils.map((value) => Date.parse(value ?? '')));
  const seconds = Math.floor((earliest - now.getTime()) / 1000);
  return seconds > 0 ? `private, max-age=${seconds}` : 'private, no-cache';
}

export interface ViewAnswer {
  body: object;
  /** valid_until of every part of the answer (base source and aspect sources). */
  validUntils: (string | null)[];
  findingsOnly: boolean;
  /** The canonical path of the view; absent on invalid_number. */
  contentLocation?: string;
}

/**
 * Sends a view with its validators and caching headers, or 304 Not Modified (same headers, no
 * body) when If-None-Match names the body's ETag.
 */
export function sendView(req: Request, res: Response, answer: ViewAnswer, now: Date): void {
  const text = JSON.stringify(answer.body);
  const etag = strongEtag(text);
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', cacheControl(answer.validUntils, answer.findingsOnly, now));
  res.setHeader('Vary', 'Authorization');
  if (answer.contentLocation) res.setHeader('Content-Location', answer.contentLocation);
  if (ifNoneMatchHits(req.headers['if-none-match'], etag)) {
    res.status(304).end();
    return;
  }
  // res.json serialises exactly as above (no replacer, no spaces): the ETag is of these bytes.
  res.json(answer.body);
}
