import { requireScopes } from '@msg/auth';
import { internalDocumentPath, openapiDocumentPath } from '@msg/contracts';
import {
  createService,
  type ErrorFormat,
  type KitHttpOptions,
  problemErrorFormat,
} from '@msg/http';
import type { RequestHandler } from 'express';
import type { NumberLookup } from './lookup/number-lookup.js';
import { getInternalNumber } from './operations/getInternalNumber.js';
import { getNumber } from './operations/getNumber.js';
import { getNumberLiveStatus } from './operations/getNumberLiveStatus.js';
import { getNumberPortingHistory } from './operations/getNumberPortingHistory.js';
import type { Quota } from './quota.js';

export interface NumbersAppDeps {
  lookup: NumberLookup;
  quota: Quota;
  /** The document's basicAuth (basicAccountAccess of @msg/auth). */
  basicAuth: RequestHandler;
  /** The document's internalBearer (requireServiceToken of @msg/auth). */
  internalBearer: RequestHandler;
  problemTypeBase: string;
  /** The kit's part of createService (ServiceContext.http of @msg/service-kit). */
  http: KitHttpOptions;
  /** The clock of every answer (valid_until, Cache-Control, quota month); injectable for tests. */
  now?: () => Date;
}

/**
 * RFC 9457 problems (spec 7.6) that, like every answer of the interface, vary by Authorization:
 * a shared cache must never hand one caller's 401/403/429 to another.
 */
export function numbersErrorFormat(problemTypeBase: string): ErrorFormat {
  const problem = problemErrorFormat(problemTypeBase);
  return (err, req) => {
    const rendered = problem(err, req);
    return { ...rendered, headers: { ...rendered.headers, Vary: 'Authorization' } };
  };
}

/** The number intelligence HTTP app. Never listens: main.ts (or a test) does. */
export function createApp(deps: NumbersAppDeps) {
  const now = deps.now ?? (() => new Date());
  const viewDeps = { lookup: deps.lookup, quota: deps.quota, now };
  return createService({
    ...deps.http,
    name: 'numbers',
    openapiPath: openapiDocumentPath('numbers'),
    internalOpenapiPath: internalDocumentPath('numbers'),
    errorFormat: numbersErrorFormat(deps.problemTypeBase),
    bodyLimit: '1kb',
    authenticators: { basicAuth: deps.basicAuth, internalBearer: deps.internalBearer },
    routes: (app) => {
      // Views set their own strong ETag (of the exact body); express's weak one would also tag
      // errors, which are not representations to revalidate.
      app.set('etag', false);
      app.get('/v1/numbers/:number', requireScopes('numbers:read'), getNumber(viewDeps));
      app.get(
        '/v1/numbers/:number/porting-history',
        requireScopes('numbers:read', 'numbers:porting-history'),
        getNumberPortingHistory(viewDeps),
      );
      app.get(
        '/v1/numbers/:number/live-status',
        requireScopes('numbers:read', 'numbers:live-status'),
        getNumberLiveStatus(viewDeps),
      );
      app.get('/internal/v1/numbers/:digits', getInternalNumber(deps.lookup, now));
    },
  });
}
