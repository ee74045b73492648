import { requireAccount } from '@msg/auth';
import type { RequestHandler } from 'express';
import { sendView, type ViewAnswer } from '../http/representation.js';
import type { NumberLookup, ResolvedBase } from '../lookup/number-lookup.js';
import type { Quota } from '../quota.js';

export type ViewName = 'base' | 'porting-history' | 'live-status';

export interface ViewDeps {
  lookup: NumberLookup;
  quota: Quota;
  now: () => Date;
}

function canonicalPath(resolved: ResolvedBase, view: ViewName): string | undefined {
  if (!resolved.digits) return undefined;
  const path = `/v1/numbers/${resolved.digits}`;
  return view === 'base' ? path : `${path}/${view}`;
}

/**
 * One view of a number (spec 4.7): quota check, lookup, count the successful lookup, answer with
 * ETag / Cache-Control / Content-Location (or 304). A failed lookup is never counted.
 */
export function numberView(view: ViewName, deps: ViewDeps): RequestHandler<{ number: string }> {
  return async (req, res) => {
    const account = requireAccount(req);
    const now = deps.now();
    let answer: ViewAnswer;
    // A database outage on the way is answered 503 by the shared error middleware; nothing
    // failed is counted, as the quota is recorded last.
    await deps.quota.check(account, now);
    const resolved = await deps.lookup.base(req.params.number, now);
    const contentLocation = canonicalPath(resolved, view);
    const common = {
      findingsOnly: resolved.findingsOnly,
      ...(contentLocation && { contentLocation }),
    };
    if (view === 'porting-history' && !resolved.findingsOnly) {
      const history = await deps.lookup.portingHistory(resolved, now);
      answer = {
        body: { ...resolved.base, porting_history: history },
        validUntils: [resolved.base.source.valid_until, history.source.valid_until],
        ...common,
      };
    } else if (view === 'live-status' && !resolved.findingsOnly) {
      const live = await deps.lookup.liveStatus(resolved, now);
      answer = {
        body: { ...resolved.base, live_status: live.view },
        validUntils: [resolved.base.source.valid_until, live.view.source.valid_until],
        ...common,
      };
    } else {
      answer = {
        body: resolved.base,
        validUntils: [resolved.base.source.valid_until],
        ...common,
      };
    }
    await deps.quota.record(account, now);
    sendView(req, res, answer, now);
  };
}
