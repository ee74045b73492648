import express, { type RequestHandler } from 'express';

export interface BodyParsingOptions {
  /** Largest accepted body after decompression, e.g. '1mb' (bytes library syntax). */
  limit: string;
  /** Path templates ('/v1/batches/{id}') whose bodies the route reads itself, unparsed. */
  rawBodyPaths: string[];
}

/** '/v1/batches/{batch_id}' → /^\/v1\/batches\/[^/]+$/ */
export function pathTemplatePattern(template: string): RegExp {
  const pattern = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${pattern}$`);
}

/**
 * JSON (application/json and +json) and form (application/x-www-form-urlencoded) bodies, inflated
 * from gzip/deflate/br when Content-Encoding says so; `limit` bounds the inflated size, so a small
 * compressed bomb is still refused. Other media types are left unread for the validator to refuse
 * (415) when the operation does not list them. Requests to `rawBodyPaths` are not read at all: the
 * route streams the body itself (e.g. a 32 MB gzip batch).
 */
export function bodyParsing({ limit, rawBodyPaths }: BodyParsingOptions): RequestHandler {
  const raw = rawBodyPaths.map(pathTemplatePattern);
  const json = express.json({
    limit,
    strict: true,
    type: ['application/json', 'application/*+json'],
  });
  // extended: false keeps form fields flat strings; nested qs syntax is not part of any interface.
  const form = express.urlencoded({ limit, extended: false, parameterLimit: 1000 });
  return (req, res, next) => {
    if (raw.some((pattern) => pattern.test(req.path))) {
      next();
      return;
    }
    json(req, res, (err?: unknown) => (err ? next(err) : form(req, res, next)));
  };
}
