import { internalDocumentPath, openapiDocumentPath } from '@msg/contracts';
import {
  type ClientUrlPolicy,
  createService,
  type IdempotencyStore,
  type KitHttpOptions,
  type ReadinessCheck,
} from '@msg/http';
import type { Express, RequestHandler } from 'express';
import { rcsErrorFormat } from './http/error-format.js';
import { RBM_PUSH_PATH } from './inbound/receiveRbmEvent.js';
import { getLiveness, getReadiness } from './operations/health.js';

export interface RcsAppDeps {
  /** The document's apiKeyAuth + clientIdAuth: rcsAccess (401, 403, 429). */
  access: RequestHandler;
  /** The document's adminBearer: RCS_ADMIN_TOKEN (requireServiceToken). */
  adminBearer: RequestHandler;
  /**
   * Idempotency-Key records of POST /rcs/v1/messages (createPostgresIdempotencyStore), scoped to
   * the authenticated account. Absent (an app built for one route in a test): keys are ignored.
   */
  idempotencyStore?: IdempotencyStore;
  /** Mounts the operations beyond health (messages, agents; webhooks of their own branch). */
  routes?: (app: Express) => void;
  /** The kit's part of createService (ServiceContext.http of @msg/service-kit). */
  http: KitHttpOptions;
  /**
   * Outside platforms (RBM) the public readiness (/rcs/v1/health/ready, spec 4.5) reports too.
   * Not in the kit's /readyz: an orchestrator must not take replicas out (sends are still
   * accepted and queued) nor hold start-up for an outage no restart can fix.
   */
  platformReadiness?: ReadinessCheck[];
  /** Whether webhook_url may name a private host (RCS_WEBHOOK_ALLOW_PRIVATE_TARGETS); refused by default. */
  clientUrls?: ClientUrlPolicy;
}

/**
 * A message is at most 11 suggestions and 10 cards of bounded text: far below 64 kB even with
 * every character escaped, so a larger body is refused before it is parsed.
 */
export const RCS_BODY_LIMIT = '64kb';

/** The RCS HTTP app. Never listens: main.ts (or a test) does. */
export function createApp(deps: RcsAppDeps) {
  return createService({
    ...deps.http,
    name: 'rcs',
    openapiPath: openapiDocumentPath('rcs'),
    internalOpenapiPath: internalDocumentPath('rcs'),
    errorFormat: rcsErrorFormat,
    bodyLimit: RCS_BODY_LIMIT,
    // RBM signs the exact bytes it pushes: the push route reads its body itself.
    rawBodyPaths: [RBM_PUSH_PATH],
    // Spec 2.5: unknown fields in any request are dropped silently and logged.
    unknownBodyMembers: 'drop',
    ...(deps.clientUrls && { clientUrls: deps.clientUrls }),
    // Both headers are one credential: the access chain reads them together.
    authenticators: {
      apiKeyAuth: deps.access,
      clientIdAuth: (_req, _res, next) => next(),
      adminBearer: deps.adminBearer,
    },
    // The access chain (apiKeyAuth) set req.account: a key is the account's, never another's.
    ...(deps.idempotencyStore && {
      idempotency: { store: deps.idempotencyStore, scope: (req) => req.account?.id },
    }),
    routes: (app) => {
      app.get('/rcs/v1/health/live', getLiveness());
      app.get(
        '/rcs/v1/health/ready',
        getReadiness([...deps.http.readiness, ...(deps.platformReadiness ?? [])]),
      );
      deps.routes?.(app);
    },
  });
}
