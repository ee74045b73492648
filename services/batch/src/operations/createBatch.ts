import { type ProtectedSenderDirectory, type RequestRateLimiter, requireAccount } from '@msg/auth';
import { RateLimitedError, type TargetPolicy } from '@msg/http';
import type { Logger } from '@msg/logger';
import type { RequestHandler } from 'express';
import type pg from 'pg';
import type { BatchConfig } from '../config.js';
import { refuseDeclaredOversize, requireGzip } from '../intake/gzip-body.js';
import { receiveBatch } from '../intake/receive-batch.js';
import { TOKEN_REQUIRED } from './token-required.js';

/** The client URL policy of batch_event_callback_url, the same for the document and the stream. */
export function batchClientUrls(config: CreateBatchDeps['config']): TargetPolicy {
  return {
    allowPrivateTargets: config.CALLBACK_ALLOW_PRIVATE_TARGETS,
    allowedHosts: config.CALLBACK_ALLOWED_HOSTS ?? [],
  };
}

export interface CreateBatchDeps {
  pool: pg.Pool;
  /** The operator's protected sender names (the kit's protectedSenders()), for `sender_id`. */
  protectedSenders: Pick<ProtectedSenderDirectory, 'names'>;
  limiter: RequestRateLimiter;
  config: Pick<
    BatchConfig,
    | 'BATCH_MAX_BODY_BYTES'
    | 'BATCH_MAX_INFLATED_BYTES'
    | 'CALLBACK_ALLOW_PRIVATE_TARGETS'
    | 'CALLBACK_ALLOWED_HOSTS'
  >;
  logger?: Logger;
}

/** At most one create per second per account (specification 8.1). */
const CREATE_RATE = { perSecond: 1, burst: 1 };

/**
 * POST /v1/batches (createBatch). The body is not parsed by express (rawBodyPaths): it is
 * streamed — gunzip, JSON, recipients straight into the database — see intake/receive-batch.ts.
 * Order of refusals after the authenticator's 401/403/429: 415 (not gzip), 413 (declared too
 * large, nothing read), 429 (one create per second), then while streaming 413 / 400. 202 with the id only after commit.
 * When it answers before the whole body was read, the connection is closed after the answer so
 * the rest is never read.
 */
export function createBatch({
  pool,
  protectedSenders,
  limiter,
  config,
  logger,
}: CreateBatchDeps): RequestHandler {
  const limits = {
    maxBodyBytes: config.BATCH_MAX_BODY_BYTES,
    maxInflatedBytes: config.BATCH_MAX_INFLATED_BYTES,
  };
  const clientUrls = batchClientUrls(config);
  return async (req, res) => {
    try {
      // Account standing (403) and the account's request rate were checked by the bearerAuth
      // authenticator. What is refused without reading the body does not use up this second's
      // create: a client fixing its Content-Encoding may send again at once.
      const account = requireAccount(req, TOKEN_REQUIRED);
      requireGzip(req);
      refuseDeclaredOversize(req, limits);
      const verdict = await limiter.take(`batch-create:${account.id}`, CREATE_RATE);
      if (!verdict.allowed) {
        throw new RateLimitedError(verdict.retryAfterSeconds, 'at most one batch per second');
      }
      const started = Date.now();
      const row = await receiveBatch(req, {
        pool,
        limits,
        accountId: account.id,
        accountMaxRecipients: account.batchMaxRecipients,
        senders: { registered: account.senderIds, protectedNames: protectedSenders.names() },
        clientUrls,
        traceId: req.requestId,
      });
      (req.log ?? logger)?.info('batch created', {
        batchId: row.id,
        totalMessages: row.total_messages,
        status: row.status,
        ms: Date.now() - started,
      });
      res.status(202).location(`/v1/batches/${row.id}`).json({ id: row.id });
    } catch (err) {
      if (req.socket?.destroyed) {
        // The client went away mid-upload: the transaction rolled back; nobody to answer.
        (req.log ?? logger)?.info('batch upload abandoned by the client', {
          reason: err instanceof Error ? err.message : String(err),
        });
        return;
      }
      if (!req.complete) res.setHeader('Connection', 'close');
      throw err;
    }
  };
}
