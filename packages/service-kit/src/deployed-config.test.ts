import { loadConfig, serviceSettings, z } from '@msg/config';
import { describe, expect, it } from 'vitest';
import { loadDeployedConfig } from './deployed-config.js';
import { defineService } from './service-definition.js';

const settings = z.object({ ...serviceSettings.shape, GREETING: z.string().min(1) });
const loadOwn = (env: Record<string, string | undefined>) => loadConfig(settings, env);
const start = async () => {
  throw new Error('not started in these tests');
};

const withDatabase = defineService({
  name: 'with-db',
  loadConfig: loadOwn,
  database: { schema: 'with_db', migrations: [] },
  start,
});
const withoutDatabase = defineService({ name: 'no-db', loadConfig: loadOwn, start });

/** Asserts that loading fails with a ConfigError listing exactly these problems. */
const refusedWith = (problems: unknown) =>
  expect.objectContaining({ name: 'ConfigError', problems });

describe('loadDeployedConfig', () => {
  it('when DATABASE_URL and KAFKA_BROKERS are both missing, then one error names both', () => {
    expect(() => loadDeployedConfig(withDatabase, { GREETING: 'hi' })).toThrow(
      refusedWith(['DATABASE_URL: required, not set', 'KAFKA_BROKERS: required, not set']),
    );
  });

  it("when the service's own settings are wrong too, then its problems come in the same error", () => {
    expect(() => loadDeployedConfig(withDatabase, { PORT: 'eighty' })).toThrow(
      refusedWith([
        expect.stringMatching(/^PORT: /),
        'GREETING: required, not set',
        'DATABASE_URL: required, not set',
        'KAFKA_BROKERS: required, not set',
      ]),
    );
  });

  it('when the service has no database, then only KAFKA_BROKERS is required', () => {
    expect(() => loadDeployedConfig(withoutDatabase, { GREETING: 'hi' })).toThrow(
      refusedWith(['KAFKA_BROKERS: required, not set']),
    );
    const { deployment } = loadDeployedConfig(withoutDatabase, {
      GREETING: 'hi',
      KAFKA_BROKERS: 'k:9092',
    });
    expect(deployment).not.toHaveProperty('DATABASE_URL');
  });

  it('when everything is set, then the service config and the deployment come parsed, with a 10 s session and a 1 s heartbeat by default', () => {
    const { config, deployment } = loadDeployedConfig(withDatabase, {
      GREETING: 'hi',
      PORT: '3001',
      DATABASE_URL: 'postgres://db:5432/app',
      KAFKA_BROKERS: 'k1:9092,k2:9092',
    });
    expect(config).toMatchObject({ GREETING: 'hi', PORT: 3001 });
    expect(deployment).toEqual({
      DATABASE_URL: 'postgres://db:5432/app',
      KAFKA_BROKERS: ['k1:9092', 'k2:9092'],
      KAFKA_SESSION_TIMEOUT: 10_000,
      KAFKA_HEARTBEAT_INTERVAL: 1_000,
    });
  });

  it('when the heartbeat is more than a third of the session, then it is refused naming both', () => {
    const load = () =>
      loadDeployedConfig(withoutDatabase, {
        GREETING: 'hi',
        KAFKA_BROKERS: 'k:9092',
        KAFKA_SESSION_TIMEOUT: '6s',
        KAFKA_HEARTBEAT_INTERVAL: '3s',
      });
    expect(load).toThrow(
      refusedWith([
        'KAFKA_HEARTBEAT_INTERVAL: must be at most a third of KAFKA_SESSION_TIMEOUT (6000 ms), got 3000 ms',
      ]),
    );
  });
});
