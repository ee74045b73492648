import type { Express, RequestHandler } from 'express';
import type { Registry } from 'prom-client';
import { MethodNotAllowedError } from './errors.js';

/** One dependency that must be usable before the service takes traffic (bus, database, account directory). */
export interface ReadinessCheck {
  name: string;
  isReady(): boolean | Promise<boolean>;
}

const CHECK_TIMEOUT_MS = 2_000;

async function passes(check: ReadinessCheck): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    // A check that hangs must not hang the probe: the orchestrator would time out and guess.
    return await Promise.race([Promise.resolve().then(() => check.isReady()), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

const onlyGet: RequestHandler = () => {
  throw new MethodNotAllowedError(['GET', 'HEAD']);
};

/** Every check's name and whether it passes (each bounded by a timeout), in order. */
export function checkReadiness(
  readiness: readonly ReadinessCheck[],
): Promise<(readonly [string, boolean])[]> {
  return Promise.all(readiness.map(async (check) => [check.name, await passes(check)] as const));
}

/** GET /readyz: 200 when every check passes, else 503 naming the failing ones. */
export function readinessProbe(readiness: readonly ReadinessCheck[]): RequestHandler {
  return async (req, res) => {
    const results = await checkReadiness(readiness);
    const checks = Object.fromEntries(results.map(([name, ok]) => [name, ok ? 'ok' : 'failing']));
    const failing = results.filter(([, ok]) => !ok).map(([name]) => name);
    if (failing.length > 0) req.log.debug('not ready', { failing });
    res
      .status(failing.length > 0 ? 503 : 200)
      .json({ status: failing.length > 0 ? 'unavailable' : 'ok', checks });
  };
}

/**
 * Kubernetes probes and Prometheus: /healthz (liveness: the process answers), /readyz (readiness:
 * every check passes, else 503 naming the failing ones), /metrics (this service's registry).
 */
export function mountOperationalRoutes(
  app: Express,
  readiness: ReadinessCheck[],
  registry: Registry,
): void {
  app
    .route('/healthz')
    .get((_req, res) => {
      res.json({ status: 'ok' });
    })
    .all(onlyGet);

  app.route('/readyz').get(readinessProbe(readiness)).all(onlyGet);

  app
    .route('/metrics')
    .get(async (_req, res) => {
      res.type(registry.contentType).send(await registry.metrics());
    })
    .all(onlyGet);
}
