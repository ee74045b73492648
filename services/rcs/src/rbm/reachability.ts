import type { ReadinessCheck } from '@msg/http';

export interface RbmReachabilityOptions {
  /** How long one probe may take; default 1 s (readiness answers within the kit's 2 s). */
  timeoutMs?: number;
  /** How long an answer is reused, so probes every second do not each call RBM; default 5 s. */
  cacheMs?: number;
  now?: () => number;
}

/**
 * Readiness of the RBM platform: an HTTP GET of RCS_RBM_BASE_URL's root without credentials.
 * Any HTTP answer (Google answers 404 there) means the platform is reachable; a connection
 * error or timeout means it is not. Cheap on purpose: no token, no agent, nothing billed.
 */
export function rbmReachability(
  baseUrl: string,
  options: RbmReachabilityOptions = {},
): ReadinessCheck {
  const timeoutMs = options.timeoutMs ?? 1_000;
  const cacheMs = options.cacheMs ?? 5_000;
  const now = options.now ?? Date.now;
  let last: { at: number; answer: Promise<boolean> } | undefined;

  async function probe(): Promise<boolean> {
    try {
      const response = await fetch(baseUrl, {
        method: 'GET',
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      return true;
    } catch {
      return false;
    }
  }

  return {
    name: 'rbm platform',
    isReady() {
      if (!last || now() - last.at >= cacheMs) last = { at: now(), answer: probe() };
      return last.answer;
    },
  };
}
