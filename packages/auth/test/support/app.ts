import { HttpError } from '@msg/http';
import type { ErrorRequestHandler, Express, RequestHandler } from 'express';
import { express } from './express.js';

/**
 * A bare express app for middleware tests, with a minimal stand-in for @msg/http's error
 * middleware: HttpErrors become their status, headers and `{ code, message }`.
 */
export function createTestApp(
  mount: (app: Express) => void,
  { trustProxy }: { trustProxy?: string } = {},
): Express {
  const app = express();
  if (trustProxy) app.set('trust proxy', trustProxy);
  mount(app);
  const renderError: ErrorRequestHandler = (err, _req, res, _next) => {
    if (err instanceof HttpError) {
      res.status(err.status).set(err.headers).json({ code: err.code, message: err.message });
      return;
    }
    res
      .status(500)
      .json({ code: 'INTERNAL_ERROR', message: err instanceof Error ? err.message : 'unknown' });
  };
  app.use(renderError);
  return app;
}

/** The handler behind every guarded test route: echoes who was authenticated. */
export const whoami: RequestHandler = (req, res) => {
  res.json({ id: req.account?.id, name: req.account?.name });
};
