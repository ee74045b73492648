import type { Logger } from '@msg/logger';
import express, { type NextFunction, type Request, type Response } from 'express';
import { BEHAVIOURS, isBehaviour } from './behaviours.js';
import type { CalleeState } from './callee-state.js';

/**
 * The control API for tests and the demo (no authentication: listen on loopback):
 * GET /calls, GET /calls/:id, DELETE /calls, GET /rules, PUT /rules/:number, DELETE /rules/:number.
 */
export function createControlApp(state: CalleeState, logger: Logger): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '4kb' }));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.get('/calls', (_req, res) => {
    res.json(state.calls());
  });

  app.get('/calls/:id', (req, res) => {
    const record = state.call(req.params.id);
    if (!record) {
      res.status(404).json({ error: 'not_found', message: 'id: no call with this id' });
      return;
    }
    res.json(record);
  });

  app.delete('/calls', (_req, res) => {
    state.clearCalls();
    res.status(204).end();
  });

  app.get('/rules', (_req, res) => {
    res.json({ defaultBehaviour: state.defaultBehaviour, rules: state.rules() });
  });

  app.put('/rules/:number', (req, res) => {
    const behaviour: unknown =
      typeof req.body === 'object' && req.body !== null ? req.body.behaviour : undefined;
    if (!isBehaviour(behaviour)) {
      res.status(400).json({
        error: 'bad_request',
        message: `behaviour: expected one of ${BEHAVIOURS.join(', ')}`,
      });
      return;
    }
    state.setRule(req.params.number, behaviour);
    res.json({ number: req.params.number, behaviour });
  });

  app.delete('/rules/:number', (req, res) => {
    if (!state.deleteRule(req.params.number)) {
      res.status(404).json({ error: 'not_found', message: 'number: no rule for this number' });
      return;
    }
    res.status(204).end();
  });

  app.use((_req, res) => {
    res.status(404).json({ error: 'not_found', message: 'no such endpoint' });
  });

  // Express 5 passes thrown errors here; body-parser errors carry a 4xx status.
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status =
      typeof error === 'object' && error !== null && 'status' in error ? Number(error.status) : 500;
    if (status === 413) {
      res.status(413).json({ error: 'payload_too_large', message: 'body: at most 4 kB' });
      return;
    }
    if (status >= 400 && status < 500) {
      res.status(status).json({ error: 'bad_request', message: 'body: malformed JSON' });
      return;
    }
    logger.error('sip callee control error', { error });
    res.status(500).json({ error: 'internal', message: 'internal error' });
  });

  return app;
}
