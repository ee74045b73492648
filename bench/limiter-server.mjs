// One replica of an app whose only route is behind the per-account rate limit, for
// limiter.bench.mjs. LIMITER picks the limiter: none (the floor), memory (createRateLimiter) or
// postgres (createPostgresRateLimiter on DATABASE_URL, schema SCHEMA, migrated at start).
import {
  createPostgresRateLimiter,
  createRateLimiter,
  RATE_LIMIT_MIGRATIONS_DIR,
  rateLimit,
} from '@msg/auth';
import { createPool, migrate } from '@msg/db';
import { createLogger } from '@msg/logger';
import express from 'express';

const { LIMITER, DATABASE_URL, SCHEMA = 'bench_limits' } = process.env;
const limit = { perSecond: Number(process.env.PER_SECOND), burst: Number(process.env.BURST) };

async function limiterOf(kind) {
  if (kind === 'memory') return createRateLimiter();
  if (kind !== 'postgres') return undefined;
  const pool = createPool({ url: DATABASE_URL, max: 4 });
  const logger = createLogger({ service: 'bench-limiter', level: 'error' });
  await migrate({ pool, schema: SCHEMA, migrationsDirs: [RATE_LIMIT_MIGRATIONS_DIR], logger });
  return createPostgresRateLimiter({ pool, schema: SCHEMA });
}

const limiter = await limiterOf(LIMITER);
const app = express();
if (limiter) app.use(rateLimit(limiter, () => ({ key: 'sms:bench', ...limit })));
app.use((_req, res) => res.json({ status: 'OK' }));
app.use((err, _req, res, _next) => {
  res
    .status(err.status ?? 500)
    .set(err.headers ?? {})
    .json({ code: err.code ?? 'INTERNAL_ERROR' });
});
const server = app.listen(0, '127.0.0.1', () =>
  process.stdout.write(`listening ${server.address().port}\n`),
);
