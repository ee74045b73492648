import type { OpenApiDocument } from '@msg/contracts';
import type { Request, RequestHandler, Response } from 'express';
import { HttpError, PayloadTooLargeError, ValidationError } from '../errors.js';
import { isRecord, matchedOperation } from '../openapi-request.js';
import { resolveLocalRef } from '../openapi-validation.js';
import { BodyFingerprint } from './body-fingerprint.js';
import type {
  IdempotencyKeyId,
  IdempotencyStore,
  RequestFingerprint,
  StoredAnswer,
} from './idempotency-store.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set on an answer that is the stored first answer, sent again. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

export interface IdempotencyOptions {
  store: IdempotencyStore;
  /**
   * Whom a key belongs to: the authenticated account's id (keys of two accounts never meet).
   * Runs after the document's authenticators.
   */
  scope: (req: Request) => string | undefined;
}

/** 1 to 255 printable ASCII characters (what Stripe and Telnyx accept: a UUID fits). */
const KEY_SYNTAX = /^[\x20-\x7e]{1,255}$/;
/** Answers larger than this are not stored (none of ours comes close): the key is released. */
const MAX_STORED_BODY = 64 * 1024;
/** A body nobody parsed (e.g. an empty cancel) is read up to this to fingerprint it. */
const MAX_UNPARSED_BODY = 64 * 1024;
/** The response headers a replay repeats; the rest (Date, X-Request-Id...) are the replay's own. */
const REPLAYED_HEADERS = ['content-type', 'location', 'content-language'];

const fingerprints = new WeakMap<Request, BodyFingerprint>();

/**
 * Before body parsing: starts hashing the body of every POST that carries an Idempotency-Key, as
 * it is read by whoever reads it.
 */
export const fingerprintRequestBodies: RequestHandler = (req, _res, next) => {
  if (req.method === 'POST' && req.get(IDEMPOTENCY_KEY_HEADER) !== undefined)
    fingerprints.set(req, new BodyFingerprint(req));
  next();
};

/**
 * The POST operations ('/v1/batches/{batch_id}/cancel') whose document declares the
 * Idempotency-Key header, on the operation or its path: the document decides where keys apply.
 */
export function postsTakingIdempotencyKey(document: OpenApiDocument): Set<string> {
  const declares = (parameters: unknown) =>
    Array.isArray(parameters) &&
    parameters.some((ref) => {
      const p = resolveLocalRef(document, ref);
      return (
        isRecord(p) &&
        p.in === 'header' &&
        typeof p.name === 'string' &&
        p.name.toLowerCase() === IDEMPOTENCY_KEY_HEADER.toLowerCase()
      );
    });
  const routes = new Set<string>();
  for (const [route, pathItem] of Object.entries(document.paths)) {
    const post = isRecord(pathItem) ? pathItem.post : undefined;
    if (isRecord(post) && (declares(post.parameters) || declares(pathItem.parameters)))
      routes.add(route);
  }
  return routes;
}

const keyProblem = (type: string, msg: string) =>
  ValidationError.field(['header', IDEMPOTENCY_KEY_HEADER], type, msg);

class IdempotencyKeyInUseError extends HttpError {
  constructor() {
    super(
      409,
      'IDEMPOTENCY_KEY_IN_USE',
      `a request with this ${IDEMPOTENCY_KEY_HEADER} is still being processed; retry later`,
      [
        {
          loc: ['header', IDEMPOTENCY_KEY_HEADER],
          msg: 'is in use by a request in flight',
          type: 'inFlight',
        },
      ],
      { 'Retry-After': '1' },
    );
  }
}

class IdempotencyKeyReusedError extends HttpError {
  constructor() {
    super(
      422,
      'IDEMPOTENCY_KEY_REUSED',
      `${IDEMPOTENCY_KEY_HEADER} was already used with a different request body; use a new key for a new request`,
      [
        {
          loc: ['header', IDEMPOTENCY_KEY_HEADER],
          msg: 'was used with a different body',
          type: 'reused',
        },
      ],
    );
  }
}

function replay(res: Response, answer: StoredAnswer): void {
  res.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
  res.end(answer.body);
}

/**
 * Holds back the end of the response until its answer is stored under the key (so a retry that
 * follows the answer at once finds it), or releases the key when the answer must not be kept:
 * 5xx and 429 (the client should retry), and any answer given before the body was read to its end
 * (its fingerprint is unknown).
 */
function storeAnswerOnEnd(
  req: Request,
  res: Response,
  store: IdempotencyStore,
  id: IdempotencyKeyId,
  token: string,
  fingerprint: BodyFingerprint,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const write = res.write;
  const end = res.end;
  const capture = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const buffer = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(
          String(chunk),
          typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8',
        );
    size += buffer.length;
    if (size <= MAX_STORED_BODY) chunks.push(buffer);
  };
  res.write = function (this: Response, chunk: unknown, ...rest: unknown[]) {
    capture(chunk, rest[0]);
    return write.call(this, chunk, ...(rest as [BufferEncoding, () => void]));
  } as Response['write'];
  res.end = function (this: Response, ...args: unknown[]) {
    capture(args[0], args[1]);
    res.end = end;
    const request = fingerprint.result();
    const keep =
      res.statusCode < 500 && res.statusCode !== 429 && request && size <= MAX_STORED_BODY;
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = res.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const saved = keep
      ? store.complete(id, token, request, {
          status: res.statusCode,
          headers,
          body: Buffer.concat(chunks),
        })
      : store.release(id, token);
    saved
      .catch((err: unknown) => req.log.error('idempotency key not saved', { error: err }))
      .finally(() => end.apply(res, args as Parameters<Response['end']>));
    return res;
  } as Response['end'];
}

/**
 * After authentication and validation, on the operations whose document declares the
 * Idempotency-Key header: the first answer for (scope, method, path, key) is stored and replayed;
 * the same key with another body is 422, while the first is in flight 409. See the README.
 */
export function idempotency(
  { store, scope }: IdempotencyOptions,
  document: OpenApiDocument,
  /** Path templates whose operation streams the body itself (createService's rawBodyPaths). */
  streamedRoutes: string[],
): RequestHandler {
  const keyedRoutes = postsTakingIdempotencyKey(document);
  return async (req, res, next) => {
    try {
      const key = req.get(IDEMPOTENCY_KEY_HEADER);
      const fingerprint = fingerprints.get(req);
      const route = matchedOperation(req)?.route;
      if (key === undefined || !fingerprint || !route || !keyedRoutes.has(route)) {
        next();
        return;
      }
      if (!KEY_SYNTAX.test(key))
        throw keyProblem('pattern', 'must be 1 to 255 printable ASCII characters');
      const owner = scope(req);
      if (owner === undefined) throw new Error('idempotency: no scope (is authentication first?)');
      const id: IdempotencyKeyId = { scope: owner, method: req.method, path: req.path, key };

      // A parsed body was read whole by now; a streamed one is read by the operation (hashed as
      // it passes), so its fingerprint is only known at the end. A body no parser took is read here.
      const streamed = streamedRoutes.includes(route);
      if (!streamed && !fingerprint.complete) {
        if ((await fingerprint.readRest(req, MAX_UNPARSED_BODY)) === 'tooLong')
          throw new PayloadTooLargeError();
      }
      const claim = await store.claim(id, streamed ? null : (fingerprint.result() ?? null));
      if (claim.state === 'claimed') {
        storeAnswerOnEnd(req, res, store, id, claim.token, fingerprint);
        next();
        return;
      }
      if (claim.state === 'inFlight') {
        if (!req.complete) res.setHeader('Connection', 'close');
        throw new IdempotencyKeyInUseError();
      }
      if (!(await sameRequest(req, fingerprint, claim.request))) {
        if (!req.complete) res.setHeader('Connection', 'close');
        throw new IdempotencyKeyReusedError();
      }
      req.log.info('idempotent replay', { status: claim.answer.status });
      replay(res, claim.answer);
    } catch (err) {
      next(err);
    }
  };
}

/** Reads what is left of the body (never more than the first request's) and compares. */
async function sameRequest(
  req: Request,
  fingerprint: BodyFingerprint,
  first: RequestFingerprint,
): Promise<boolean> {
  if ((await fingerprint.readRest(req, first.bodyBytes)) === 'tooLong') return false;
  return fingerprint.result()?.fingerprint === first.fingerprint;
}
