import type { AccountLookup } from '@msg/auth';
import { internalDocumentPath, openapiDocumentPath } from '@msg/contracts';
import { createService, type IdempotencyStore, type KitHttpOptions } from '@msg/http';
import type { RequestHandler } from 'express';
import { replypathErrorFormat } from './http/error-format.js';
import type { Sender } from './messages/sender.js';
import { getHealth } from './operations/getHealth.js';
import {
  addPoolNumbers,
  listPoolNumbers,
  removePoolNumber,
  updatePoolNumber,
} from './operations/pool.js';
import { sendSms } from './operations/sendSms.js';
import { sendSmsInternal } from './operations/sendSmsInternal.js';
import type { PoolStore } from './pool/pool-store.js';

export interface ReplypathAppDeps {
  sender: Sender;
  poolStore: PoolStore;
  /** Idempotency-Key records of POST /replypath/v1/sendsms (createPostgresIdempotencyStore). */
  idempotencyStore: IdempotencyStore;
  /** Accounts of the internal send (the caller authenticated them). */
  accounts: AccountLookup;
  /**
   * The document's basicAuth: authentication, account guards and rate limit (@msg/auth
   * basicAccountAccess, built in service.ts).
   */
  basicAuth: RequestHandler;
  /** The document's internalBearer: REPLYPATH_INTERNAL_TOKEN (requireServiceToken). */
  internalBearer: RequestHandler;
  /** The document's poolAdminBearer: REPLYPATH_ADMIN_TOKEN (requireServiceToken). */
  poolAdminBearer: RequestHandler;
  /** The kit's part of createService (ServiceContext.http of @msg/service-kit). */
  http: KitHttpOptions;
}

/**
 * Bodies are one message: 1530 characters at most, escaped JSON (\uXXXX for every UCS-2
 * character) included well under 16 kB, so a larger body is refused before it is parsed.
 */
export const REPLYPATH_BODY_LIMIT = '16kb';

/** The reply-path HTTP app. Never listens: main.ts (or a test) does. */
export function createApp(deps: ReplypathAppDeps) {
  return createService({
    ...deps.http,
    name: 'replypath',
    openapiPath: openapiDocumentPath('replypath'),
    internalOpenapiPath: internalDocumentPath('replypath'),
    errorFormat: replypathErrorFormat,
    bodyLimit: REPLYPATH_BODY_LIMIT,
    authenticators: {
      basicAuth: deps.basicAuth,
      internalBearer: deps.internalBearer,
      poolAdminBearer: deps.poolAdminBearer,
    },
    idempotency: { store: deps.idempotencyStore, scope: (req) => req.account?.id },
    routes: (app) => {
      app.get('/replypath/v1/health', getHealth());
      app.post('/replypath/v1/sendsms', sendSms(deps.sender));
      app.post('/internal/v1/sendsms', sendSmsInternal(deps.sender, deps.accounts));
      app.get('/internal/v1/pool/numbers', listPoolNumbers(deps.poolStore));
      app.post('/internal/v1/pool/numbers', addPoolNumbers(deps.poolStore));
      app.patch('/internal/v1/pool/numbers/:number', updatePoolNumber(deps.poolStore));
      app.delete('/internal/v1/pool/numbers/:number', removePoolNumber(deps.poolStore));
    },
  });
}
