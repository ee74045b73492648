import type { Logger } from '@msg/logger';
import express, { type NextFunction, type Request, type Response } from 'express';
import { type BasicCredentials, matchesBasic } from './credentials.js';
import type { HlrState } from './hlr-state.js';
import { answerFor, HLR_STATUSES, isHlrStatus, MSISDN_PATTERN } from './subscribers.js';

export interface HlrAppOptions {
  state: HlrState;
  credentials: BasicCredentials;
  logger: Logger;
  now?: () => Date;
}

/** Seconds a client should wait after a 503. */
const RETRY_AFTER_SECONDS = '1';

/**
 * The provider API (`GET /v1/hlr/{msisdn}`, HTTP Basic) and, under /control, the simulator's
 * control API for tests and the demo (no authentication: listen on loopback).
 */
export function createHlrApp({
  state,
  credentials,
  logger,
  now = () => new Date(),
}: HlrAppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.get('/v1/hlr/:msisdn', (req, res) => {
    if (!matchesBasic(req.headers.authorization, credentials)) {
      res
        .status(401)
        .set('WWW-Authenticate', 'Basic realm="hlr", charset="UTF-8"')
        .json({ error: 'unauthorized', message: 'missing or wrong credentials' });
      return;
    }
    const { msisdn } = req.params;
    if (!MSISDN_PATTERN.test(msisdn)) {
      res.status(400).json({
        error: 'invalid_msisdn',
        message: 'expected 7 to 15 digits with country code, no plus',
      });
      return;
    }
    state.recordQuery(msisdn);
    const status = state.statusOf(msisdn);
    logger.debug('hlr lookup', { status });
    if (status === 'unavailable') {
      res
        .status(503)
        .set('Retry-After', RETRY_AFTER_SECONDS)
        .json({ error: 'unavailable', message: 'the network did not answer' });
      return;
    }
    res.json(answerFor(msisdn, status, now()));
  });

  const control = express.Router();
  control.use(express.json({ limit: '4kb' }));

  control.get('/queries', (req, res) => {
    const { msisdn } = req.query;
    if (msisdn !== undefined && typeof msisdn !== 'string') {
      res.status(400).json({ error: 'bad_request', message: 'msisdn: expected one value' });
      return;
    }
    res.json(
      msisdn === undefined ? { count: state.queries() } : { msisdn, count: state.queries(msisdn) },
    );
  });

  control.put('/numbers/:msisdn', (req, res) => {
    const { msisdn } = req.params;
    const status: unknown =
      typeof req.body === 'object' && req.body !== null ? req.body.status : undefined;
    if (!MSISDN_PATTERN.test(msisdn)) {
      res
        .status(400)
        .json({ error: 'invalid_msisdn', message: 'expected digits with country code' });
      return;
    }
    if (!isHlrStatus(status)) {
      res.status(400).json({
        error: 'bad_request',
        message: `status: expected one of ${HLR_STATUSES.join(', ')}`,
      });
      return;
    }
    state.setStatus(msisdn, status);
    res.json({ msisdn, status });
  });

  control.post('/reset', (_req, res) => {
    state.reset();
    res.status(204).end();
  });

  app.use('/control', control);

  app.use((_req, res) => {
    res.status(404).json({ error: 'not_found', message: 'no such endpoint' });
  });

  // Express 5 passes thrown errors here; body-parser errors carry a 4xx status.
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status =
      typeof error === 'object' && error !== null && 'status' in error ? Number(error.status) : 500;
    if (status >= 400 && status < 500) {
      res.status(status).json({ error: 'bad_request', message: 'malformed request' });
      return;
    }
    logger.error('hlr simulator error', { error });
    res.status(500).json({ error: 'internal', message: 'internal error' });
  });

  return app;
}
