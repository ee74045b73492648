import type { RequestHandler } from 'express';
import type { NumberLookup } from '../lookup/number-lookup.js';
import type { InternalNumberResponse } from '../lookup/views.js';

export const INTERNAL_ASPECTS = ['live_status', 'porting_history'] as const;
type Aspect = (typeof INTERNAL_ASPECTS)[number];

function aspectsOf(query: unknown): Set<Aspect> {
  const raw = typeof query === 'string' ? query : '';
  return new Set(
    raw
      .split(',')
      .map((aspect) => aspect.trim())
      .filter((aspect): aspect is Aspect =>
        (INTERNAL_ASPECTS as readonly string[]).includes(aspect),
      ),
  );
}

/**
 * GET /internal/v1/numbers/{digits}?aspects=live_status,porting_history — for the legacy lookup
 * service: the base view, the requested aspects and the network's own details (IMSI, MCC, MNC).
 * No quota, no account rate limit; not routed by the gateway.
 */
export function getInternalNumber(
  lookup: NumberLookup,
  now: () => Date,
): RequestHandler<{ digits: string }> {
  return async (req, res) => {
    const at = now();
    const aspects = aspectsOf(req.query.aspects);
    const resolved = await lookup.base(req.params.digits, at);
    const body: InternalNumberResponse = { base: resolved.base };
    if (!resolved.findingsOnly && aspects.has('porting_history')) {
      body.porting_history = await lookup.portingHistory(resolved, at);
    }
    if (!resolved.findingsOnly && aspects.has('live_status')) {
      const live = await lookup.liveStatus(resolved, at);
      body.live_status = live.view;
      if (live.hlr && Object.keys(live.hlr).length > 0) body.hlr = live.hlr;
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json(body);
  };
}
