import type { RequestHandler } from 'express';
import { numberView, type ViewDeps } from './views.js';

/** GET /v1/numbers/{number}/live-status — base plus live_status. */
export const getNumberLiveStatus = (deps: ViewDeps): RequestHandler<{ number: string }> =>
  numberView('live-status', deps);
