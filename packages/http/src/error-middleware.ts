import { randomUUID } from 'node:crypto';
import { classifyDatabaseError } from '@msg/db/errors';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { ErrorFormat, ErrorResponse } from './error-format.js';
import { HttpError, InternalError, NotFoundError, NotImplementedError } from './errors.js';
import { isRecord, matchedOperation } from './openapi-request.js';
import { translateError } from './translate-error.js';

/**
 * After every route: a request nothing answered. With a document, the validator has already
 * answered 404 for undocumented paths, so a documented operation without a handler remains (501).
 */
export const noRoute: RequestHandler = (req) => {
  if (matchedOperation(req))
    throw new NotImplementedError(`${req.method} ${req.path} is not implemented`);
  throw new NotFoundError(`No operation at ${req.path}`);
};

function send(res: Response, err: HttpError, rendered: ErrorResponse): void {
  for (const [name, value] of Object.entries({ ...err.headers, ...rendered.headers }))
    res.setHeader(name, value);
  res.status(rendered.status);
  if (typeof rendered.body === 'string' || Buffer.isBuffer(rendered.body)) {
    res.type(rendered.contentType ?? 'text/plain').send(rendered.body);
    return;
  }
  if (rendered.contentType) res.type(rendered.contentType);
  res.json(rendered.body);
}

/**
 * What the validator reports about a response that breaks the document, for the log: where and
 * which rule, renamed because the logger redacts any `message` key (it may be message text).
 */
function validatorProblems(err: unknown): { at: unknown; rule: unknown }[] | undefined {
  if (!isRecord(err) || !Array.isArray(err.errors)) return undefined;
  return err.errors
    .filter(isRecord)
    .map((problem) => ({ at: problem.path, rule: problem.message }));
}

/**
 * What a parser, zlib or a library said about a refused request, for the log only: the body
 * says what was wrong in the interface's words (named `reason` because the logger redacts any
 * `message` key).
 */
function internalReason(err: unknown): string | undefined {
  const cause = err instanceof HttpError && err.cause !== undefined ? err.cause : err;
  if (cause instanceof HttpError || !(cause instanceof Error)) return undefined;
  return cause.message;
}

/**
 * The one error middleware of a service: normalises anything thrown (translateError) and renders
 * it in the interface's format. Anything unknown becomes a 500 whose body only carries an error
 * id; the log line with that id has the stack. Stacks reach the response only when
 * `exposeStacks` (development).
 */
export function errorMiddleware(
  format: ErrorFormat,
  { exposeStacks }: { exposeStacks: boolean },
): ErrorRequestHandler {
  return (err: unknown, req: Request, res: Response, _next) => {
    let httpError = translateError(err, req);
    if (httpError === undefined) {
      const errorId = randomUUID();
      const stack = err instanceof Error ? err.stack : undefined;
      req.log.error('request failed', {
        errorId,
        error: err instanceof Error ? err : { value: String(err) },
        problems: validatorProblems(err),
      });
      httpError = new InternalError(errorId, exposeStacks ? stack : undefined);
    } else {
      // A translated database error keeps its SQLSTATE, P-code and constraint here, never in
      // the body; a lost race (409) is worth an info line, other rejections only a debug one.
      const database = classifyDatabaseError(err);
      const fields = {
        code: httpError.code,
        status: httpError.status,
        database,
        reason: internalReason(err),
      };
      if (httpError.status >= 500) req.log.warn('request failed', fields);
      else if (database) req.log.info('request rejected', fields);
      else req.log.debug('request rejected', fields);
    }

    if (res.headersSent) {
      // Too late to answer: end the connection so the client sees a broken response, not a short one.
      req.log.warn('error after response started', { code: httpError.code });
      res.destroy();
      return;
    }
    try {
      send(res, httpError, format(httpError, req));
    } catch (formatError) {
      req.log.error('error format failed', { error: formatError });
      res.status(500).json({ code: 'INTERNAL_ERROR', message: 'Unexpected error' });
    }
  };
}
