import { loadConfig, serviceSettings, z } from '@msg/config';
import { describe, expect, it } from 'vitest';
import { runService } from './run-service.js';
import { defineService } from './service-definition.js';

const service = defineService({
  name: 'run-test',
  loadConfig: (env) => loadConfig(z.object({ ...serviceSettings.shape }), env),
  database: { schema: 'run_test', migrations: [] },
  start: async () => {
    throw new Error('never reached: the configuration is refused first');
  },
});

describe('runService', () => {
  it('when DATABASE_URL and KAFKA_BROKERS are unset, then it prints both and exits 1 without starting', async () => {
    const exits: number[] = [];
    let printed = '';
    await runService(service, {
      env: {},
      exit: (code) => exits.push(code),
      stderr: { write: (text: string) => (printed += text) },
      signals: [],
    });
    expect(exits).toEqual([1]);
    expect(printed).toContain('DATABASE_URL: required, not set');
    expect(printed).toContain('KAFKA_BROKERS: required, not set');
  });
});
