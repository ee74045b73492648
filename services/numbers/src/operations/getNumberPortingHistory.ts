import type { RequestHandler } from 'express';
import { numberView, type ViewDeps } from './views.js';

/** GET /v1/numbers/{number}/porting-history — base plus porting_history. */
export const getNumberPortingHistory = (deps: ViewDeps): RequestHandler<{ number: string }> =>
  numberView('porting-history', deps);
