import type { RequestHandler } from 'express';
import { isRecord } from './openapi-request.js';

/**
 * No interface nests members deeper than this; below it nothing is compared (a hostile body may
 * nest thousands of levels, which neither a copy nor a comparison should follow).
 */
const MAX_DEPTH = 32;

/** The keys of `value`, to MAX_DEPTH: what droppedMembers compares with after validation. */
export function memberTree(value: unknown, depth = 0): unknown {
  if (depth >= MAX_DEPTH) return undefined;
  if (Array.isArray(value)) return value.map((item) => memberTree(item, depth + 1));
  if (!isRecord(value)) return undefined;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [key, memberTree(member, depth + 1)]),
  );
}

/**
 * Dotted paths of the members of `before` (a memberTree) that `after` no longer has
 * ('message.rich_card.x', 'message.suggestions.0.reply.y'): what the validator removed as
 * unknown.
 */
export function droppedMembers(before: unknown, after: unknown, at: string[] = []): string[] {
  if (Array.isArray(before) && Array.isArray(after)) {
    return before.flatMap((item, i) => droppedMembers(item, after[i], [...at, String(i)]));
  }
  if (!isRecord(before) || !isRecord(after)) return [];
  return Object.keys(before).flatMap((key) =>
    Object.hasOwn(after, key)
      ? droppedMembers(before[key], after[key], [...at, key])
      : [[...at, key].join('.')],
  );
}

const SNAPSHOT = Symbol('body before validation');
type WithSnapshot = { [SNAPSHOT]?: unknown };

/** Before request validation: a copy of the parsed body, to compare with what validation leaves. */
export const snapshotBody: RequestHandler = (req, _res, next) => {
  if (isRecord(req.body) || Array.isArray(req.body)) {
    (req as WithSnapshot)[SNAPSHOT] = memberTree(req.body);
  }
  next();
};

/**
 * After request validation with removeAdditional: logs the members it dropped (an interface
 * whose specification says unknown fields are "dropped silently and logged server-side").
 */
export const logDroppedMembers: RequestHandler = (req, _res, next) => {
  const before = (req as WithSnapshot)[SNAPSHOT];
  if (before !== undefined) {
    const dropped = droppedMembers(before, req.body);
    if (dropped.length > 0) req.log.info('unknown request members dropped', { dropped });
  }
  next();
};
