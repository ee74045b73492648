// How fast POST /v1/batches refuses what it must refuse, batch service as its own process on real
// Postgres and Kafka (the deployed shape), one fresh account per request:
//  1. 1,000,001 recipients (one over the limit): the count is checked per recipient while the
//     body streams, so the refusal comes at recipient 1,000,001 — after the first million were
//     parsed, checked and copied (rolled back). Floor: gunzip + JSON.parse of the same bytes.
//  2. a gzip bomb (600 MiB of spaces, about 0.6 MB gzipped): refused by the inflate ratio
//     (services/batch/src/intake/gzip-body.ts, 200:1 past 1 MiB) instead of at the 512 MiB total.
//     Floor: gunzip of the same bytes (what reaching the total would cost at least).
// Bounded: one request per case.

import { randomBytes } from 'node:crypto';
import { createGzip, gunzipSync, gzipSync } from 'node:zlib';
import { createLogger } from '@msg/logger';
import { createKafkaBus } from '../packages/bus/dist/index.js';
import { Topics } from '../packages/contracts/dist/index.js';
import { batchJson, postBatch, publishAccount, startBatch, token } from './batch.bench.mjs';
import { BROKERS, withDatabase } from './processes.mjs';

const BOMB_MIB = 600;

function bomb() {
  return new Promise((resolve, reject) => {
    const gzip = createGzip({ level: 9 });
    const chunks = [];
    gzip.on('data', (c) => chunks.push(c));
    gzip.on('end', () => resolve(Buffer.concat(chunks)));
    gzip.on('error', reject);
    gzip.write('{"batch":');
    const spaces = Buffer.alloc(1024 * 1024, 0x20);
    for (let i = 0; i < BOMB_MIB; i += 1) gzip.write(spaces);
    gzip.end('{}}');
  });
}

function timed(work) {
  const started = performance.now();
  work();
  return Math.round(performance.now() - started);
}

export async function run() {
  const overLimit = gzipSync(Buffer.from(batchJson(1_000_001, false)));
  const bombBody = await bomb();
  const cases = [
    {
      name: '1,000,001 recipients (limit 1,000,000)',
      body: overLimit,
      floorName: 'gunzip + JSON.parse',
      floorMs: timed(() => JSON.parse(gunzipSync(overLimit).toString('utf8'))),
    },
    {
      name: `gzip bomb (${BOMB_MIB} MiB of spaces)`,
      body: bombBody,
      floorName: 'gunzip',
      floorMs: timed(() => gunzipSync(bombBody, { maxOutputLength: 2 ** 31 - 1 })),
    },
  ];
  return withDatabase(async (databaseUrl) => {
    const logger = createLogger({ service: 'bench', level: 'error' });
    const bus = createKafkaBus({ brokers: BROKERS.split(','), clientId: 'bench-refusal', logger });
    await bus.ensureTopics([{ topic: Topics.accounts, compacted: true }]);
    const { batch, baseUrl } = await startBatch(databaseUrl);
    try {
      const rows = [];
      for (const { name, body, floorName, floorMs } of cases) {
        const accountName = `bench-refusal-${randomBytes(3).toString('hex')}`;
        await publishAccount(bus, accountName);
        const refused = await postBatch(baseUrl, await token(baseUrl, accountName), body);
        rows.push({
          case: name,
          'gzip KB': Math.round(body.length / 1024),
          answer: `${refused.status} ${refused.answer.details?.[0]?.msg ?? refused.answer.message}`,
          'time to refusal ms': refused.ms,
          'floor: the same bytes in this process': `${floorName} ${floorMs} ms`,
        });
      }
      return [
        {
          title:
            'Batch refusals (POST /v1/batches) on Postgres + Kafka, batch service as its own process',
          rows,
        },
      ];
    } finally {
      batch.stop();
      await bus.close();
    }
  });
}
