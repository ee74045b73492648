import { readServiceDocument } from '@msg/contracts';
import type { Logger } from '@msg/logger';
import express, { type Express, type Request, type RequestHandler } from 'express';
import { Registry } from 'prom-client';
import { bodyParsing } from './body-parsing.js';
import type { TargetPolicy } from './client-url.js';
import { type ErrorFormat, jsonErrorFormat } from './error-format.js';
import { errorMiddleware, noRoute } from './error-middleware.js';
import { mountOperationalRoutes, type ReadinessCheck } from './health.js';
import { createHttpMetrics } from './http-metrics.js';
import {
  fingerprintRequestBodies,
  type IdempotencyOptions,
  idempotency,
} from './idempotency/idempotency.js';
import { openapiValidation } from './openapi-validation.js';
import { requestContext } from './request-context.js';
import { requestObserver } from './request-observer.js';
import { renderClientErrorsWith } from './start-server.js';

export interface ServiceOptions {
  /** Service name: in every log line and, as a default label, on every metric. */
  name: string;
  logger: Logger;
  /** Registers the service's operation handlers (one file per operationId). */
  routes: (app: Express) => void;
  /** The interface's OpenAPI 3.1 document (e.g. `openapiDocumentPath('batch')`); enables strict validation. */
  openapiPath?: string;
  /**
   * The service's internal document (`internalDocumentPath('rcs')`): its `/internal/`
   * operations, kept out of the public document, validated with it as one (readServiceDocument).
   */
  internalOpenapiPath?: string;
  /** Renders every error in the interface's format; default `{ code, message, details }`. */
  errorFormat?: ErrorFormat;
  /** Largest JSON or form body after decompression; default '1mb'. */
  bodyLimit?: string;
  /**
   * Path templates of the document ('/v1/batches') whose bodies the global parsers leave unread:
   * the route streams `req` itself (e.g. a gzip body larger than memory should hold). The
   * validator still checks their Content-Type, parameters and responses, not their body.
   */
  rawBodyPaths?: string[];
  /**
   * Express middleware per security scheme name of the document (e.g. `{ bearerAuth: ... }`).
   * For each matched operation the schemes its `security` (or the document's) names run after
   * routing and before validation, so unauthenticated callers get 401 before any 400. Every
   * scheme the document uses needs one (checked at start-up). Without this option, routes
   * authenticate themselves.
   */
  authenticators?: Record<string, RequestHandler>;
  /**
   * Idempotency-Key on every operation whose document declares that header parameter: the first
   * answer is stored (in `store`, per `scope(req)` + method + path + key) and replayed. Runs after
   * the authenticators and validation. See the README.
   */
  idempotency?: IdempotencyOptions;
  /** /readyz answers 200 only when every check passes. */
  readiness?: ReadinessCheck[];
  /**
   * Addresses whose X-Forwarded-For is believed (express 'trust proxy'): the gateway's.
   * Default 'loopback'.
   */
  trustProxy?: string | string[];
  /** The service's metric registry; a new one by default. Never the global registry. */
  metrics?: Registry;
  /** Also collect Node process metrics (CPU, memory, event loop) on the registry; default false. */
  processMetrics?: boolean;
  /**
   * What happens to request body members the document does not declare: 'reject' (400, the
   * default) or 'drop' (removed before validation and logged; the RCS interface's rule).
   */
  unknownBodyMembers?: 'reject' | 'drop';
  /**
   * Whether the document's `format: callback-url` fields may name private hosts (loopback,
   * private, link-local, metadata, `localhost`): from the service's CALLBACK_ALLOW_PRIVATE_TARGETS.
   * Default: refused (400 naming the field).
   */
  clientUrls?: TargetPolicy;
  /** Check every response against the document; on in tests. Default false. */
  validateResponses?: boolean;
  /** Put the stack of unexpected errors in 500 responses; development only. Default false. */
  exposeErrorStacks?: boolean;
}

/**
 * What every service's createService gets from the service kit (ServiceContext.http of
 * @msg/service-kit) rather than from its own app: the kit's logger, metric registry and /readyz
 * checks, the deployment's trusted proxies and response validation in tests. An app spreads it
 * first and adds what is its own (name, document, routes, error format, body limit); a test
 * building an app directly writes the object itself.
 */
export interface KitHttpOptions {
  logger: Logger;
  /** The service's registry; a new one labelled with the service's name when absent. */
  metrics?: Registry;
  /** The same array the kit keeps filling (database, account directory, ...). */
  readiness: ReadinessCheck[];
  trustProxy?: string | string[];
  validateResponses?: boolean;
}

/**
 * The express app of a service, fully wired and never listening (see startServer):
 * request id → access log and metrics → /healthz /readyz /metrics → body parsing →
 * OpenAPI validation → Idempotency-Key → the service's routes → 404/501 → the one error middleware.
 */
export function createService(options: ServiceOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // Paths are case-sensitive (RFC 3986 6.2.2.1, and every document here spells them in lower
  // case): `/v1/lookup/SWEDEN/...` is an unknown path, not a second spelling of a level.
  app.set('case sensitive routing', true);
  app.set('trust proxy', options.trustProxy ?? 'loopback');

  const registry = options.metrics ?? new Registry();
  if (!options.metrics) registry.setDefaultLabels({ service: options.name });
  const metrics = createHttpMetrics(registry, { processMetrics: options.processMetrics ?? false });
  const rawBodyPaths = options.rawBodyPaths ?? [];

  app.use(requestContext(options.name, options.logger));
  app.use(requestObserver(metrics));
  mountOperationalRoutes(app, options.readiness ?? [], registry);
  if (options.idempotency) app.use(fingerprintRequestBodies);
  app.use(bodyParsing({ limit: options.bodyLimit ?? '1mb', rawBodyPaths }));
  const document =
    options.openapiPath && readServiceDocument(options.openapiPath, options.internalOpenapiPath);
  if (document) {
    app.use(
      openapiValidation({
        document,
        rawBodyPaths,
        validateResponses: options.validateResponses ?? false,
        ...(options.unknownBodyMembers && { unknownBodyMembers: options.unknownBodyMembers }),
        ...(options.clientUrls && { clientUrls: options.clientUrls }),
        ...(options.authenticators ? { authenticators: options.authenticators } : {}),
      }),
    );
  } else if (options.authenticators) {
    throw new Error(
      `${options.name}: authenticators follow the document's security; give an openapiPath`,
    );
  }
  if (options.idempotency) {
    if (!document) {
      throw new Error(`${options.name}: idempotency follows the document; give an openapiPath`);
    }
    app.use(idempotency(options.idempotency, document, rawBodyPaths));
  }
  options.routes(app);
  app.use(noRoute);
  const errorFormat = options.errorFormat ?? jsonErrorFormat;
  app.use(errorMiddleware(errorFormat, { exposeStacks: options.exposeErrorStacks ?? false }));
  // Requests Node's parser refuses never reach express: startServer renders them with the path.
  renderClientErrorsWith(app, (err, path) => errorFormat(err, clientErrorRequest(path)));
  return app;
}

/** The little a format can know of a request Node refused: its path, nothing else. */
function clientErrorRequest(path: string): Request {
  return { path, method: '', headers: {}, query: {} } as unknown as Request;
}
