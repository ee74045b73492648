import { createInProcessBus } from '@msg/bus';
import { loadConfig, serviceSettings, trustSettings, z } from '@msg/config';
import { createService, type KitHttpOptions } from '@msg/http';
import { createLogger } from '@msg/logger';
import { describe, expect, it } from 'vitest';
import { defineService } from './service-definition.js';
import { startService } from './start-service.js';

const settings = z.object({ ...serviceSettings.shape, ...trustSettings.shape });

/** Starts a service without a database and returns the http options its start function got. */
async function httpOptionsFor(env: Record<string, string>): Promise<KitHttpOptions> {
  let given: KitHttpOptions | undefined;
  const service = defineService({
    name: 'http-options-test',
    loadConfig: (raw) => loadConfig(settings, raw),
    start: async (_config, kit) => {
      given = kit.http;
      return { app: createService({ ...kit.http, name: 'http-options-test', routes: () => {} }) };
    },
  });
  const logger = createLogger({ service: 'http-options-test', level: 'error' });
  const started = await startService(service, service.loadConfig(env), {
    bus: createInProcessBus({ logger }),
    logger,
  });
  await started.stop();
  if (!given) throw new Error('the start function was not called');
  return given;
}

describe('ServiceContext.http', () => {
  it("when NODE_ENV is test, then createService gets the kit's logger, metrics, readiness, trusted proxies and response validation", async () => {
    const http = await httpOptionsFor({ NODE_ENV: 'test', TRUSTED_PROXIES: '10.0.0.0/8' });
    expect(http.trustProxy).toEqual(['10.0.0.0/8']);
    expect(http.validateResponses).toBe(true);
    expect(http.metrics).toBeDefined();
    expect(http.readiness).toEqual([]);
  });

  it('when NODE_ENV is production, then responses are not validated and loopback is the trusted proxy', async () => {
    const http = await httpOptionsFor({});
    expect(http.trustProxy).toEqual(['loopback']);
    expect(http.validateResponses).toBe(false);
  });
});
