import express, { type NextFunction, type Request, type Response } from 'express';
import { checkRules, parseRules, type ReceiptRule, RuleSyntaxError } from './receipt-rules.js';
import { InboundTooLongError } from './smsc-server.js';
import type { SmscControl } from './smsc-types.js';

/** A client mistake in a control request; answered 400 with its message. */
class BadRequest extends Error {
  override name = 'BadRequest';
}

function body(req: Request): Record<string, unknown> {
  const value: unknown = req.body;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BadRequest('expected a JSON object body');
  }
  return { ...value };
}

function requiredString(fields: Record<string, unknown>, name: string): string {
  const value = fields[name];
  if (typeof value !== 'string' || value.length === 0) {
    throw new BadRequest(`${name}: expected a non-empty string`);
  }
  return value;
}

function optionalString(fields: Record<string, unknown>, name: string): string | undefined {
  return fields[name] === undefined ? undefined : requiredString(fields, name);
}

function isRule(value: unknown): value is ReceiptRule {
  return (
    typeof value === 'object' &&
    value !== null &&
    'prefix' in value &&
    typeof value.prefix === 'string' &&
    'outcome' in value &&
    typeof value.outcome === 'string'
  );
}

function rulesFrom(fields: Record<string, unknown>): ReceiptRule[] {
  const { rules } = fields;
  if (typeof rules === 'string') return parseRules(rules);
  if (Array.isArray(rules) && rules.every(isRule)) return checkRules(rules);
  throw new BadRequest('rules: expected "prefix=outcome,..." or [{ prefix, outcome }]');
}

/**
 * The simulator's HTTP control API, for tests, benchmarks and the demo. It listens on loopback
 * only and has no authentication: it can drop every bind and read every message.
 */
export function createControlApp(control: SmscControl): express.Express {
  const app = express();
  app.use(express.json({ limit: '64kb' }));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.post('/inbound', (req, res) => {
    const fields = body(req);
    const systemId = optionalString(fields, 'system_id');
    const messageId = control.sendInbound({
      from: requiredString(fields, 'from'),
      to: requiredString(fields, 'to'),
      text: requiredString(fields, 'text'),
      ...(systemId !== undefined && { systemId }),
    });
    if (messageId === null) {
      res.status(409).json({ message: 'no receiver or transceiver session is bound' });
      return;
    }
    res.status(202).json({ messageId });
  });

  // ?from=<n>: only submits numbered n or later, so a test polling a long run reads what is new.
  // X-Submits-Recorded: how many were recorded since start or reset (the next ?from).
  app.get('/submits', (req, res) => {
    const from = req.query.from === undefined ? 0 : Number(req.query.from);
    if (!Number.isInteger(from) || from < 0) {
      throw new BadRequest('from: expected a non-negative integer');
    }
    res.setHeader('x-submits-recorded', String(control.submitsRecorded()));
    res.json(control.submits(from));
  });

  app.get('/stats', (_req, res) => {
    res.json(control.stats());
  });

  app.post('/reset', (_req, res) => {
    control.reset();
    res.status(204).end();
  });

  app.get('/rules', (_req, res) => {
    res.json({ rules: control.rules() });
  });

  app.put('/rules', (req, res) => {
    control.setRules(rulesFrom(body(req)));
    res.json({ rules: control.rules() });
  });

  app.get('/throttle', (_req, res) => {
    res.json(control.throttle());
  });

  app.put('/throttle', (req, res) => {
    const fields = body(req);
    const current = control.throttle();
    const { perSecond = current.perSecond, queueFull = current.queueFull } = fields;
    if (perSecond !== null && !(Number.isInteger(perSecond) && Number(perSecond) > 0)) {
      throw new BadRequest('perSecond: expected a positive integer or null');
    }
    if (typeof queueFull !== 'boolean') throw new BadRequest('queueFull: expected a boolean');
    control.setThrottle({ perSecond: perSecond === null ? null : Number(perSecond), queueFull });
    res.json(control.throttle());
  });

  app.post('/stop-binds', (_req, res) => {
    res.json({ dropped: control.dropSessions() });
  });

  app.post('/refuse-binds', (req, res) => {
    const { refuse } = body(req);
    if (typeof refuse !== 'boolean') throw new BadRequest('refuse: expected a boolean');
    control.refuseBinds(refuse);
    res.json({ refuse });
  });

  app.use((_req, res) => {
    res.status(404).json({ message: 'no such control endpoint' });
  });

  // Express 5 passes thrown errors (sync and async) here; body-parser errors carry a status.
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (
      error instanceof BadRequest ||
      error instanceof RuleSyntaxError ||
      error instanceof InboundTooLongError
    ) {
      res.status(400).json({ message: error.message });
      return;
    }
    const status =
      typeof error === 'object' && error !== null && 'status' in error ? Number(error.status) : 500;
    res.status(status >= 400 && status < 500 ? status : 500).json({
      message: status >= 400 && status < 500 ? 'malformed request body' : 'internal error',
    });
  });

  return app;
}
