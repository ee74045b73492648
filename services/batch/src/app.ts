import { openapiDocumentPath } from '@msg/contracts';
import { createService, jsonErrorFormat, type ReadinessCheck } from '@msg/http';
import type { Logger } from '@msg/logger';
import type { RequestHandler } from 'express';
import { type CreateAccessTokenDeps, createAccessToken } from './operations/createAccessToken.js';
import { getBatchHealth } from './operations/getBatchHealth.js';

export interface BatchAppDeps extends CreateAccessTokenDeps {
  /** Authenticates `Authorization: Bearer <access token>` on every batch operation. */
  bearer: RequestHandler;
  logger: Logger;
  readiness: ReadinessCheck[];
  trustProxy?: string[];
  validateResponses?: boolean;
}

/** The batch service's HTTP app. Never listens: main.ts (or a test) does. */
export function createApp(deps: BatchAppDeps) {
  return createService({
    name: 'batch',
    logger: deps.logger,
    openapiPath: openapiDocumentPath('batch'),
    errorFormat: jsonErrorFormat,
    readiness: deps.readiness,
    ...(deps.trustProxy && { trustProxy: deps.trustProxy }),
    ...(deps.validateResponses !== undefined && { validateResponses: deps.validateResponses }),
    authenticators: { bearerAuth: deps.bearer },
    routes: (app) => {
      app.post('/v1/oauth/token', createAccessToken(deps));
      app.get('/v1/health/batches', getBatchHealth());
    },
  });
}
