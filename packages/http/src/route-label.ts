import type { Request } from 'express';
import { matchedOperation } from './openapi-request.js';

/**
 * The route a request is counted and logged under: the document's path template when the
 * validator matched one, else the express route pattern. Never the raw path: it would carry
 * phone numbers and ids, and make the metrics' label set unbounded.
 */
export function routeLabel(req: Request): string {
  const matched = matchedOperation(req);
  if (matched) return matched.route;
  const pattern: unknown = req.route?.path;
  if (typeof pattern === 'string') return `${req.baseUrl}${pattern}`;
  return 'unmatched';
}
