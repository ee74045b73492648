// Gateway overhead: the same endpoints called directly and through the gateway, in one run, on the
// embedded suite. Also a bare express endpoint behind its own listener as the floor of this machine.
import { createLogger } from '@msg/logger';
import { loadSuiteConfig, startSuite } from '@msg/suite';
import express from 'express';
import { load } from './load.mjs';

const COUNT = 20_000;
const CONCURRENCY = 32;

export async function run() {
  const suite = await startSuite(
    loadSuiteConfig({
      PORT: '0',
      ADMIN_PORT: '0',
      EMBEDDED_DATA_DIR: 'memory',
      LOG_LEVEL: 'error',
    }),
    createLogger({ service: 'bench', level: 'error' }),
  );
  const bare = express().get('/ping', (_req, res) => res.json({ status: 'OK' }));
  const bareServer = await new Promise((resolve) => {
    const s = bare.listen(0, '127.0.0.1', () => resolve(s));
  });
  const bareUrl = `http://127.0.0.1:${bareServer.address().port}/ping`;
  const token = JSON.stringify({
    client_id: suite.demo.username,
    client_secret: suite.demo.apiKey,
    grant_type: 'client_credentials',
  });
  const json = { 'content-type': 'application/json' };
  const rows = [];
  try {
    const cases = [
      ['bare express GET (floor)', { url: bareUrl }],
      ['batch health, direct', { url: `${suite.serviceUrls.batch}/v1/health/batches` }],
      ['batch health, via gateway', { url: `${suite.gatewayUrl}/v1/health/batches` }],
      [
        'token (API key, cached verify), direct',
        {
          url: `${suite.serviceUrls.batch}/v1/oauth/token`,
          method: 'POST',
          headers: json,
          body: token,
        },
      ],
      [
        'token (API key, cached verify), via gateway',
        { url: `${suite.gatewayUrl}/v1/oauth/token`, method: 'POST', headers: json, body: token },
      ],
    ];
    for (const [name, options] of cases) {
      await load({ ...options, count: 500, concurrency: CONCURRENCY }); // warm-up
      rows.push({ name, ...(await load({ ...options, count: COUNT, concurrency: CONCURRENCY })) });
    }
  } finally {
    bareServer.close();
    await suite.stop();
  }
  return {
    title: `HTTP through the gateway (${COUNT} requests, ${CONCURRENCY} concurrent, keep-alive)`,
    rows,
  };
}
