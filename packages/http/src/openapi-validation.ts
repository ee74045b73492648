import type { OpenApiDocument } from '@msg/contracts';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { middleware } from 'express-openapi-validator';
import {
  CLIENT_URL_FORMAT,
  isClientUrl,
  PUBLIC_TARGETS_ONLY,
  type TargetPolicy,
} from './client-url.js';
import { logDroppedMembers, snapshotBody } from './dropped-members.js';
import { integerParameters } from './integer-parameters.js';
import { isRecord, matchedOperation } from './openapi-request.js';

export interface OpenApiValidationOptions {
  /** The service's document (readServiceDocument: its public and internal operations). */
  document: OpenApiDocument;
  /** Path templates of the document whose request bodies the routes read themselves. */
  rawBodyPaths: string[];
  /** Check every response against the document (tests); a mismatch becomes a logged 500. */
  validateResponses: boolean;
  /** Express middleware per security scheme name of the document; see createService. */
  authenticators?: Record<string, RequestHandler>;
  /** 'drop': body members the document does not declare are removed and logged, not refused. */
  unknownBodyMembers?: 'reject' | 'drop';
  /** Whether `format: callback-url` fields may name private hosts; refused by default. */
  clientUrls?: TargetPolicy;
}

/** Our own routes, not part of any interface document. */
export const UNDOCUMENTED_PATHS = /^\/(healthz|readyz|metrics)$|^\/docs(\/|$)/;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type ValidatorDocument = Exclude<Parameters<typeof middleware>[0]['apiSpec'], string>;

/**
 * The validator checks the whole document against the OpenAPI schema itself (validateApiSpec);
 * its TypeScript types demand fields OpenAPI 3.1 leaves optional (info.summary, webhooks), so
 * only what it switches on — the version — is checked here.
 */
function isValidatorDocument(
  document: OpenApiDocument,
): document is OpenApiDocument & ValidatorDocument {
  return /^3\.(0|1)\.\d+$/.test(document.openapi);
}

/** `value`, or what its local `$ref` ('#/components/...') points to. */
export function resolveLocalRef(document: OpenApiDocument, value: unknown): unknown {
  if (!isRecord(value) || typeof value.$ref !== 'string') return value;
  if (!value.$ref.startsWith('#/')) return value;
  let node: unknown = document;
  for (const segment of value.$ref.slice(2).split('/')) {
    node = isRecord(node) ? node[segment.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
  }
  return resolveLocalRef(document, node);
}

function operationsOf(pathItem: Record<string, unknown>): Record<string, unknown>[] {
  return HTTP_METHODS.map((method) => pathItem[method]).filter(isRecord);
}

/**
 * A copy of the document in which the request bodies of `rawBodyPaths` are opaque
 * (`format: binary`): the validator still checks their Content-Type, parameters and responses,
 * but leaves the body, which it never sees parsed, to the route.
 */
function withRawBodies(document: OpenApiDocument, rawBodyPaths: string[]): OpenApiDocument {
  const copy = structuredClone(document);
  for (const template of rawBodyPaths) {
    const pathItem = copy.paths[template];
    if (!pathItem)
      throw new Error(`rawBodyPaths: ${template} is not a path of the OpenAPI document`);
    for (const operation of operationsOf(pathItem)) {
      const body = resolveLocalRef(copy, operation.requestBody);
      if (!isRecord(body) || !isRecord(body.content)) continue;
      const content: Record<string, unknown> = {};
      for (const mediaType of Object.keys(body.content)) {
        content[mediaType] = { schema: { type: 'string', format: 'binary' } };
      }
      operation.requestBody = { required: body.required === true, content };
    }
  }
  return copy;
}

/** Security requirements in force for an operation: its own, else the document's. */
function requirementsOf(document: OpenApiDocument, operation: Record<string, unknown>): unknown[] {
  const own = operation.security;
  if (Array.isArray(own)) return own;
  return Array.isArray(document.security) ? document.security : [];
}

/** Scheme names to authenticate, or [] when the operation admits anonymous callers. */
function schemesToRun(requirements: unknown[]): string[] {
  const [first] = requirements;
  if (!isRecord(first) || requirements.some((r) => isRecord(r) && Object.keys(r).length === 0))
    return [];
  return Object.keys(first);
}

/** Fails at start-up, not on the first request, when the document asks for what we cannot do. */
function checkAuthenticators(
  document: OpenApiDocument,
  authenticators: Record<string, RequestHandler>,
): void {
  for (const [path, pathItem] of Object.entries(document.paths)) {
    for (const operation of operationsOf(pathItem)) {
      const requirements = requirementsOf(document, operation).filter(
        (r) => isRecord(r) && Object.keys(r).length > 0,
      );
      const where = `${String(operation.operationId ?? path)}`;
      if (requirements.length > 1) {
        throw new Error(
          `${where}: alternative security requirements are not supported; declare one`,
        );
      }
      for (const scheme of schemesToRun(requirements)) {
        if (!authenticators[scheme])
          throw new Error(`${where}: no authenticator for security scheme ${scheme}`);
      }
    }
  }
}

function runInSequence(
  handlers: RequestHandler[],
  req: Request,
  res: Response,
  next: NextFunction,
): void {
  let index = 0;
  const step = (err?: unknown): void => {
    if (err !== undefined && err !== null && err !== 'route' && err !== 'router') {
      next(err);
      return;
    }
    const handler = handlers[index++];
    if (!handler) {
      next();
      return;
    }
    try {
      const result: unknown = handler(req, res, step);
      if (result instanceof Promise) result.catch(step);
    } catch (error) {
      step(error);
    }
  };
  step();
}

/**
 * Runs the authenticators of the schemes the matched operation requires (all of them: a
 * requirement's schemes are ANDed). It sits after the validator has matched the operation and
 * before it validates the request, so a caller without credentials gets 401, not a 400 that
 * describes the body it may not send.
 */
function documentedSecurity(
  document: OpenApiDocument,
  authenticators: Record<string, RequestHandler>,
): RequestHandler {
  return (req, res, next) => {
    const matched = matchedOperation(req);
    if (!matched) {
      next();
      return;
    }
    const handlers = schemesToRun(requirementsOf(document, matched.operation)).flatMap(
      (scheme) => authenticators[scheme] ?? [],
    );
    runInSequence(handlers, req, res, next);
  };
}

/**
 * express-openapi-validator, strict: unknown paths 404, wrong methods 405, undeclared media types
 * 415, unknown query parameters and body fields 400 (body fields dropped and logged instead with
 * `unknownBodyMembers: 'drop'`); bodies are not coerced (query and path
 * parameters are, as they only exist as strings).
 */
export function openapiValidation(options: OpenApiValidationOptions): RequestHandler[] {
  const document = withRawBodies(options.document, options.rawBodyPaths);
  if (!isValidatorDocument(document)) {
    throw new Error(
      `${document.info.title}: OpenAPI ${document.openapi} is not supported; use 3.1`,
    );
  }
  const drop = options.unknownBodyMembers === 'drop';
  const clientUrls = options.clientUrls ?? PUBLIC_TARGETS_ONLY;
  const chain = middleware({
    apiSpec: document,
    validateApiSpec: true,
    validateRequests: {
      allowUnknownQueryParameters: false,
      coerceTypes: false,
      allErrors: true,
      // Every member a schema with `properties` does not declare is removed before validation.
      ...(drop && { removeAdditional: 'all' as const }),
    },
    validateResponses: options.validateResponses
      ? { coerceTypes: false, removeAdditional: false, allErrors: true }
      : false,
    // Authentication is ours (passport strategies, via `authenticators`): the validator's security
    // check would answer before our handlers and without their WWW-Authenticate challenge.
    validateSecurity: false,
    ignoreUndocumented: false,
    ignorePaths: UNDOCUMENTED_PATHS,
    // No interface takes multipart bodies.
    fileUploader: false,
    // Every URL a client gives us to call is checked by one function (client-url.ts).
    formats: {
      [CLIENT_URL_FORMAT]: {
        type: 'string',
        validate: (text: string) => isClientUrl(text, clientUrls),
      },
    },
  });
  if (options.authenticators) checkAuthenticators(document, options.authenticators);
  // The validator's chain is metadata → security → request validation → response validation;
  // authentication goes right before request validation (see documentedSecurity), then our
  // strict reading of integer parameters, which the validator would coerce with Number().
  const requestValidation = chain.findIndex((handler) => handler.name === 'requestMiddleware');
  if (requestValidation < 0) {
    throw new Error(
      'express-openapi-validator: request validation middleware not found; check its version',
    );
  }
  return [
    ...chain.slice(0, requestValidation),
    ...(options.authenticators ? [documentedSecurity(document, options.authenticators)] : []),
    integerParameters,
    ...(drop ? [snapshotBody] : []),
    chain[requestValidation] as RequestHandler,
    ...(drop ? [logDroppedMembers] : []),
    ...chain.slice(requestValidation + 1),
  ];
}
