import express, { type Request, type RequestHandler } from 'express';
import { HttpError, ValidationError } from './errors.js';
import { checkJsonBody, checkText, checkTextDeep } from './json-input-rules.js';

export interface BodyParsingOptions {
  /** Largest accepted body after decompression, e.g. '1mb' (bytes library syntax). */
  limit: string;
  /** Path templates ('/v1/batches/{id}') whose bodies the route reads itself, unparsed. */
  rawBodyPaths: string[];
}

/**
 * '/v1/batches/{batch_id}' → /^\/v1\/batches\/[^/]+\/?$/: the paths Express routes to the
 * template's handler (non-strict, case-sensitive routing: createService's), trailing slash included.
 * Narrower than the router, a raw route's body would be parsed before its handler reads the
 * stream, which then waits for data that never comes.
 */
export function pathTemplatePattern(template: string): RegExp {
  const pattern = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${pattern}/?$`);
}

/**
 * The text rule for what the URL carries: a NUL (`%00`) in a query parameter or a path segment is
 * refused like one in a body, and so is a query parameter whose percent-encoding is not UTF-8
 * (`%ED%A0%80`, `%FF`, `%zz`): the query parser would quietly turn it into U+FFFD or keep it raw.
 */
function checkUrlText(req: Request): void {
  checkQueryEncoding(req.originalUrl);
  checkTextDeep(req.query, ['query']);
  for (const segment of req.path.split('/')) {
    const decoded = decodedOrUndefined(segment, { plusIsSpace: false });
    // The router would refuse it too, but in words naming its internals ("malformed uri").
    if (decoded === undefined) {
      throw ValidationError.field(['path'], 'encoding', 'must be percent-encoded UTF-8 text');
    }
    checkText(decoded, ['path']);
  }
}

/** Throws a ValidationError naming the first query parameter not percent-encoded as UTF-8. */
function checkQueryEncoding(url: string): void {
  const start = url.indexOf('?');
  if (start < 0) return;
  for (const pair of url.slice(start + 1).split('&')) {
    const equals = pair.indexOf('=');
    const rawName = equals < 0 ? pair : pair.slice(0, equals);
    const name = decodedOrUndefined(rawName);
    const value = equals < 0 ? '' : decodedOrUndefined(pair.slice(equals + 1));
    if (name === undefined || value === undefined) {
      throw ValidationError.field(
        ['query', name ?? rawName],
        'encoding',
        'must be percent-encoded UTF-8 text',
      );
    }
  }
}

function decodedOrUndefined(raw: string, { plusIsSpace = true } = {}): string | undefined {
  try {
    return decodeURIComponent(plusIsSpace ? raw.replace(/\+/g, ' ') : raw);
  } catch {
    return undefined;
  }
}

/**
 * JSON (application/json and +json) and form (application/x-www-form-urlencoded) bodies, inflated
 * from gzip/deflate/br when Content-Encoding says so; `limit` bounds the inflated size, so a small
 * compressed bomb is still refused. Other media types are left unread for the validator to refuse
 * (415) when the operation does not list them. Requests to `rawBodyPaths` are not read at all: the
 * route streams the body itself (e.g. a 32 MB gzip batch).
 *
 * Every parsed body follows the input rules of json-input-rules.ts (UTF-8 bytes, well-formed text
 * without NUL, no duplicate keys): the raw JSON bytes are checked before JSON.parse, which would
 * replace bad bytes and keep the last of two keys; form fields are checked once parsed.
 */
export function bodyParsing({ limit, rawBodyPaths }: BodyParsingOptions): RequestHandler {
  const raw = rawBodyPaths.map(pathTemplatePattern);
  // body-parser turns an error thrown by `verify` into a 403; the refusal is kept aside instead.
  const refused = new WeakMap<Request, HttpError>();
  const json = express.json({
    limit,
    strict: true,
    type: ['application/json', 'application/*+json'],
    verify(req, _res, bytes, encoding) {
      if (encoding !== 'utf-8') return;
      try {
        checkJsonBody(bytes);
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        refused.set(req as Request, err);
      }
    },
  });
  // extended: false keeps form fields flat strings; nested qs syntax is not part of any interface.
  const form = express.urlencoded({ limit, extended: false, parameterLimit: 1000 });
  return (req, res, next) => {
    checkUrlText(req);
    if (raw.some((pattern) => pattern.test(req.path))) {
      next();
      return;
    }
    json(req, res, (err?: unknown) => {
      const refusal = refused.get(req);
      if (err || refusal) {
        next(refusal ?? err);
        return;
      }
      form(req, res, (formErr?: unknown) => {
        if (formErr) {
          next(formErr);
          return;
        }
        try {
          if (req.is('urlencoded')) checkTextDeep(req.body, ['body']);
        } catch (textErr) {
          next(textErr);
          return;
        }
        next();
      });
    });
  };
}
