import { openapiDocumentPath } from '@msg/contracts';
import {
  createService,
  type IdempotencyStore,
  jsonErrorFormat,
  type KitHttpOptions,
} from '@msg/http';
import type { RequestHandler } from 'express';
import type pg from 'pg';
import { cancelBatch } from './operations/cancelBatch.js';
import { type CreateAccessTokenDeps, createAccessToken } from './operations/createAccessToken.js';
import { batchClientUrls, type CreateBatchDeps, createBatch } from './operations/createBatch.js';
import { getBatch } from './operations/getBatch.js';
import { getBatchHealth } from './operations/getBatchHealth.js';
import { pollBatch } from './operations/pollBatch.js';
import { pollBatchWithDelta } from './operations/pollBatchWithDelta.js';

export interface BatchAppDeps extends CreateAccessTokenDeps {
  /**
   * The bearerAuth authenticator (@msg/auth accountAccess, built in service.ts): token, account
   * standing and request rate, on every batch operation.
   */
  bearer: RequestHandler;
  pool: pg.Pool;
  /** The operator's protected sender names (the kit's protectedSenders()), for `sender_id`. */
  protectedSenders: CreateBatchDeps['protectedSenders'];
  /**
   * Idempotency-Key records of createBatch and cancelBatch (createPostgresIdempotencyStore). The
   * token endpoint does not take the header: its answer, a bearer token, must not be kept.
   */
  idempotencyStore: IdempotencyStore;
  /** BATCH_MAX_BODY_BYTES, BATCH_MAX_INFLATED_BYTES and the callback target settings (createBatch). */
  intake: CreateBatchDeps['config'];
  /** How long a batch is kept after it ends (BATCH_RETENTION). */
  retentionMs: number;
  /** The kit's part of createService (ServiceContext.http of @msg/service-kit). */
  http: KitHttpOptions;
}

/** The batch service's HTTP app. Never listens: main.ts (or a test) does. */
export function createApp(deps: BatchAppDeps) {
  return createService({
    ...deps.http,
    name: 'batch',
    openapiPath: openapiDocumentPath('batch'),
    errorFormat: jsonErrorFormat,
    // batch_event_callback_url: private hosts refused unless CALLBACK_ALLOW_PRIVATE_TARGETS.
    clientUrls: batchClientUrls(deps.intake),
    authenticators: { bearerAuth: deps.bearer },
    idempotency: { store: deps.idempotencyStore, scope: (req) => req.account?.id },
    rawBodyPaths: ['/v1/batches'],
    routes: (app) => {
      app.post('/v1/oauth/token', createAccessToken(deps));
      app.get('/v1/health/batches', getBatchHealth());
      app.post('/v1/batches', createBatch({ ...deps, config: deps.intake }));
      app.get('/v1/batches/:batch_id', getBatch(deps.pool));
      app.get('/v1/batches/:batch_id/poll', pollBatch(deps.pool));
      app.get('/v1/batches/:batch_id/poll_with_delta', pollBatchWithDelta(deps.pool));
      app.post('/v1/batches/:batch_id/cancel', cancelBatch(deps));
    },
  });
}
