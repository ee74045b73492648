import type { RequestHandler } from 'express';
import { numberView, type ViewDeps } from './views.js';

/** GET /v1/numbers/{number} — the base view (scope numbers:read). */
export const getNumber = (deps: ViewDeps): RequestHandler<{ number: string }> =>
  numberView('base', deps);
