import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from './config-error.js';
import { describeConfig } from './describe-config.js';
import { type LogLevel, port } from './fields.js';
import { loadConfig } from './load-config.js';
import {
  databaseSettings,
  internalApiSettings,
  internalApiTarget,
  kafkaSettings,
  prepaidBillingSettings,
  serviceSettings,
  trustSettings,
} from './settings.js';

const schema = z.object({
  ...serviceSettings.shape,
  ...databaseSettings.shape,
  ...kafkaSettings.shape,
  ...trustSettings.shape,
});

describe('shared settings', () => {
  it('when nothing is set, then container defaults apply and the embedded database and in-process bus are chosen', () => {
    expect(loadConfig(schema, {})).toEqual({
      PORT: 8080,
      HOST: '0.0.0.0',
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      TRUSTED_PROXIES: ['loopback'],
    });
  });

  it('when everything is set, then each is parsed to its type', () => {
    const config = loadConfig(schema, {
      PORT: '3001',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'debug',
      NODE_ENV: 'development',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/app',
      KAFKA_BROKERS: 'kafka-0:9092, kafka-1:9092',
      TRUSTED_PROXIES: 'loopback,10.0.0.0/8,fd00::/8,192.168.1.7',
    });
    expect(config).toMatchObject({
      PORT: 3001,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/app',
      KAFKA_BROKERS: ['kafka-0:9092', 'kafka-1:9092'],
      TRUSTED_PROXIES: ['loopback', '10.0.0.0/8', 'fd00::/8', '192.168.1.7'],
    });
  });

  it('when loaded, then each setting has its parsed type (checked by tsc)', () => {
    const config = loadConfig(schema, { KAFKA_BROKERS: 'k:9092' });
    expectTypeOf(config.PORT).toEqualTypeOf<number>();
    expectTypeOf(config.HOST).toEqualTypeOf<string>();
    expectTypeOf(config.LOG_LEVEL).toEqualTypeOf<LogLevel>();
    expectTypeOf(config.NODE_ENV).toEqualTypeOf<'development' | 'test' | 'production'>();
    expectTypeOf(config.DATABASE_URL).toEqualTypeOf<string | undefined>();
    expectTypeOf(config.KAFKA_BROKERS).toEqualTypeOf<string[] | undefined>();
    expectTypeOf(config.TRUSTED_PROXIES).toEqualTypeOf<string[]>();
    expect(config.KAFKA_BROKERS).toEqual(['k:9092']);
  });

  it('when a fragment is loaded on its own, then it is a schema like any other', () => {
    expect(loadConfig(kafkaSettings, { KAFKA_BROKERS: 'k:9092' })).toEqual({
      KAFKA_BROKERS: ['k:9092'],
    });
  });

  it('when a service overrides a shared key, then its own rule and default win', () => {
    const own = z.object({ ...serviceSettings.shape, PORT: port(3005) });
    expect(loadConfig(own, {}).PORT).toBe(3005);
  });

  it('when shared settings are wrong, then each is reported by name', () => {
    let problems: readonly string[] = [];
    try {
      loadConfig(schema, {
        HOST: 'http://x',
        NODE_ENV: 'staging',
        DATABASE_URL: 'mysql://db/app',
        KAFKA_BROKERS: 'kafka-0',
        TRUSTED_PROXIES: 'loopback,10.0.0.0/33',
      });
    } catch (error) {
      if (error instanceof ConfigError) problems = error.problems;
    }
    expect(problems).toEqual([
      'HOST: expected a host name or IP address, got "http://x"',
      'NODE_ENV: expected one of development, test, production, got "staging"',
      'DATABASE_URL: expected an absolute URL with scheme postgres or postgresql, got "mysql://db/app"',
      'KAFKA_BROKERS: expected a comma-separated list of host:port, got "kafka-0"',
      'TRUSTED_PROXIES: expected a comma-separated list of loopback, linklocal, uniquelocal, IP addresses or CIDR ranges, got "loopback,10.0.0.0/33"',
    ]);
  });
});

describe('prepaidBillingSettings', () => {
  it('when neither is set, then both are absent (postpaid-only deployment)', () => {
    expect(loadConfig(prepaidBillingSettings, {})).toEqual({});
  });

  it('when both are set, then the URL and token are kept as given', () => {
    expect(
      loadConfig(prepaidBillingSettings, {
        ADMIN_URL: 'http://admin:8080',
        BILLING_INTERNAL_TOKEN: 'billing-token-0123456789',
      }),
    ).toEqual({
      ADMIN_URL: 'http://admin:8080',
      BILLING_INTERNAL_TOKEN: 'billing-token-0123456789',
    });
  });

  it('when ADMIN_URL is not an http(s) URL, then loading fails naming it', () => {
    expect(() => loadConfig(prepaidBillingSettings, { ADMIN_URL: 'ftp://admin' })).toThrow(
      /ADMIN_URL/,
    );
  });
});

describe('internalApiSettings', () => {
  const upstream = internalApiSettings('NUMBERS', {
    service: 'number intelligence service',
    api: '/internal/v1/numbers',
    timeout: { default: '5s', describe: 'How long one call may take' },
  });

  it('when URL and token are set, then the client settings are read back with the default timeout', () => {
    const config = loadConfig(upstream, {
      NUMBERS_URL: 'http://numbers',
      NUMBERS_INTERNAL_TOKEN: 't',
    });
    expect(internalApiTarget('NUMBERS', config)).toEqual({
      baseUrl: 'http://numbers',
      token: 't',
      timeoutMs: 5000,
    });
  });

  it('when nothing is set, then the URL and the token are both named', () => {
    expect(() => loadConfig(upstream, {})).toThrow(/NUMBERS_URL[\s\S]*NUMBERS_INTERNAL_TOKEN/);
  });

  it('when described, then each key says what it is and the token is a secret', () => {
    expect(describeConfig(upstream)).toMatchObject([
      {
        name: 'NUMBERS_URL',
        description: expect.stringContaining(
          'Base URL of the number intelligence service (its /internal/v1/numbers API)',
        ),
      },
      {
        name: 'NUMBERS_INTERNAL_TOKEN',
        secret: true,
        description: expect.stringContaining(
          'Bearer token of the numbers service internal API (its NUMBERS_INTERNAL_TOKEN)',
        ),
      },
      {
        name: 'NUMBERS_TIMEOUT_MS',
        description: expect.stringContaining('How long one call may take'),
      },
    ]);
  });
});
