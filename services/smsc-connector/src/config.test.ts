import { ConfigError } from '@msg/config';
import { describe, expect, it } from 'vitest';
import { loadSmscConnectorConfig } from './config.js';

describe('loadSmscConnectorConfig', () => {
  it('when SMSC_BINDS lists two URLs, then each becomes a bind with its window, tps and system type', () => {
    const config = loadSmscConnectorConfig({
      SMSC_BINDS:
        'smpp://acme:s%40cret@smsc1.example:2775?system_type=VMA&window=5&tps=50&name=primary, smpp://acme:pw@smsc2.example',
    });

    expect(config.SMSC_BINDS).toEqual([
      {
        name: 'primary',
        host: 'smsc1.example',
        port: 2775,
        systemId: 'acme',
        password: 's@cret',
        systemType: 'VMA',
        window: 5,
        tps: 50,
      },
      {
        name: 'bind2',
        host: 'smsc2.example',
        port: 2775,
        systemId: 'acme',
        password: 'pw',
        systemType: '',
        window: 10,
        tps: 200,
      },
    ]);
    expect(config).toMatchObject({
      SMPP_ENQUIRE_LINK_MS: 30_000,
      SMPP_RECONNECT_MIN_MS: 500,
      SMPP_RECONNECT_MAX_MS: 30_000,
      SMPP_RESPONSE_TIMEOUT_MS: 10_000,
      DEFAULT_ACCOUNT_TPS: 100,
      SUBMIT_CONCURRENCY: 256,
      THROTTLE_BACKOFF_MS: 200,
    });
  });

  it('when SMSC_BINDS is missing, then loading fails naming it', () => {
    expect(() => loadSmscConnectorConfig({})).toThrow(ConfigError);
    expect(() => loadSmscConnectorConfig({})).toThrow(/SMSC_BINDS/);
  });

  it.each([
    ['http://a:b@host:2775'],
    ['smpp://host:2775'],
    ['smpp://a:b@host?window=0'],
    ['smpp://a:b@host?tps=fast'],
    ['smpp://a:b@h1?name=x,smpp://a:b@h2?name=x'],
  ])('when a bind URL is %s, then loading fails without printing the password', (binds) => {
    expect(() => loadSmscConnectorConfig({ SMSC_BINDS: binds })).toThrow(/SMSC_BINDS/);
    try {
      loadSmscConnectorConfig({ SMSC_BINDS: binds });
    } catch (error) {
      expect(String(error)).not.toContain(':b@');
    }
  });
});
