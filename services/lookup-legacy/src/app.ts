import { openapiDocumentPath } from '@msg/contracts';
import { createService, jsonErrorFormat, type ReadinessCheck } from '@msg/http';
import type { Logger } from '@msg/logger';
import type { RequestHandler } from 'express';
import type { Registry } from 'prom-client';
import type { Lookup } from './lookup/lookup.js';
import { lookupAdvanced } from './operations/lookupAdvanced.js';
import { lookupBasic } from './operations/lookupBasic.js';
import { lookupSweden } from './operations/lookupSweden.js';

export interface LookupLegacyAppDeps {
  lookup: Lookup;
  /**
   * The document's basicAuth: authentication, account guards and rate limit (@msg/auth
   * basicAccountAccess, built in service.ts).
   */
  basicAuth: RequestHandler;
  logger: Logger;
  /** The service's registry (the kit's, with the bus's consumer metrics); a new one when absent. */
  metrics?: Registry;
  readiness: ReadinessCheck[];
  trustProxy?: string[];
  validateResponses?: boolean;
}

/** The legacy lookup HTTP app. Never listens: main.ts (or a test) does. */
export function createApp(deps: LookupLegacyAppDeps) {
  return createService({
    name: 'lookup-legacy',
    logger: deps.logger,
    openapiPath: openapiDocumentPath('lookup-legacy'),
    errorFormat: jsonErrorFormat,
    // Every operation is a GET without a body.
    bodyLimit: '1kb',
    readiness: deps.readiness,
    ...(deps.metrics && { metrics: deps.metrics }),
    ...(deps.trustProxy && { trustProxy: deps.trustProxy }),
    ...(deps.validateResponses !== undefined && { validateResponses: deps.validateResponses }),
    authenticators: { basicAuth: deps.basicAuth },
    routes: (app) => {
      app.get('/v1/lookup/sweden/:msisdn', lookupSweden(deps.lookup));
      app.get('/v1/lookup/basic/:msisdn', lookupBasic(deps.lookup));
      app.get('/v1/lookup/advanced/:msisdn', lookupAdvanced(deps.lookup));
    },
  });
}
