import { loadConfig, serviceSettings, z } from '@msg/config';
import { createService } from '@msg/http';
import { createLogger } from '@msg/logger';
import { listenLocal } from '@msg/testing';
import { describe, expect, it } from 'vitest';
import { defineService, runService } from '../src/index.js';

/** A broker that answers: closing a Kafka client that never reached one takes kafkajs ~20 s. */
const KAFKA_BROKERS = process.env.TEST_KAFKA_BROKERS ?? '127.0.0.1:9092';

const listening = defineService({
  name: 'port-test',
  loadConfig: (env) => loadConfig(z.object({ ...serviceSettings.shape }), env),
  start: async () => ({
    app: createService({
      name: 'port-test',
      logger: createLogger({ service: 'port-test', level: 'error' }),
      routes: () => {},
    }),
  }),
});

describe('runService on a taken port', () => {
  it('when its PORT is taken, then stderr names PORT as the setting to change and it exits 1', async () => {
    const taken = await listenLocal(() => {});
    const { port } = taken;
    const exits: number[] = [];
    let printed = '';
    try {
      await runService(listening, {
        // No database and no topics: nothing but the listen can fail.
        env: { PORT: String(port), HOST: '127.0.0.1', KAFKA_BROKERS, LOG_LEVEL: 'error' },
        exit: (code) => exits.push(code),
        stderr: { write: (text: string) => (printed += text) },
        signals: [],
      });
    } finally {
      await taken.close();
    }
    expect(exits).toEqual([1]);
    expect(printed).toBe(
      `port-test: port ${port} on 127.0.0.1 is in use: set PORT to a free port (0 picks one)\n`,
    );
  });
});
