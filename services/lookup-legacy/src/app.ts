import { openapiDocumentPath } from '@msg/contracts';
import { createService, jsonErrorFormat, type KitHttpOptions } from '@msg/http';
import type { RequestHandler } from 'express';
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
  /** The kit's part of createService (ServiceContext.http of @msg/service-kit). */
  http: KitHttpOptions;
}

/** The legacy lookup HTTP app. Never listens: main.ts (or a test) does. */
export function createApp(deps: LookupLegacyAppDeps) {
  return createService({
    ...deps.http,
    name: 'lookup-legacy',
    openapiPath: openapiDocumentPath('lookup-legacy'),
    errorFormat: jsonErrorFormat,
    // Every operation is a GET without a body.
    bodyLimit: '1kb',
    authenticators: { basicAuth: deps.basicAuth },
    routes: (app) => {
      app.get('/v1/lookup/sweden/:msisdn', lookupSweden(deps.lookup));
      app.get('/v1/lookup/basic/:msisdn', lookupBasic(deps.lookup));
      app.get('/v1/lookup/advanced/:msisdn', lookupAdvanced(deps.lookup));
    },
  });
}
