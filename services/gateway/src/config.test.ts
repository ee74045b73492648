import { ConfigError } from '@msg/config';
import { describe, expect, it } from 'vitest';
import { gatewayConfigSchema, loadGatewayConfig, upstreamUrls } from './config.js';
import { UPSTREAM_SERVICES } from './routes.js';

describe('loadGatewayConfig', () => {
  it('when nothing is set, then the documented defaults apply and no upstream is deployed', () => {
    const config = loadGatewayConfig({});
    expect(config.PORT).toBe(8080);
    expect(config.UPSTREAM_TIMEOUT_MS).toBe(30_000);
    expect(config.BODY_LIMIT).toBe(1024 * 1024);
    expect(config.BATCH_BODY_LIMIT).toBe(32 * 1024 * 1024);
    expect(Object.values(upstreamUrls(config)).filter(Boolean)).toEqual([]);
  });

  it('when TRUSTED_PROXIES is unset, then the gateway trusts no proxy (it is the edge)', () => {
    expect(loadGatewayConfig({}).TRUSTED_PROXIES).toBeUndefined();
    expect(loadGatewayConfig({ TRUSTED_PROXIES: '10.0.0.0/8, loopback' }).TRUSTED_PROXIES).toEqual([
      '10.0.0.0/8',
      'loopback',
    ]);
  });

  it('when sizes are written like express writes them, then they become bytes', () => {
    const config = loadGatewayConfig({ BODY_LIMIT: '512kb', BATCH_BODY_LIMIT: '2097152' });
    expect(config.BODY_LIMIT).toBe(512 * 1024);
    expect(config.BATCH_BODY_LIMIT).toBe(2 * 1024 * 1024);
  });

  it('when several settings are wrong, then every one is reported by name at once', () => {
    const attempt = () =>
      loadGatewayConfig({
        BODY_LIMIT: 'lots',
        UPSTREAM_BATCH: 'not a url',
        TRUSTED_PROXIES: 'everyone',
      });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = String(error instanceof Error ? error.message : error);
      expect(message).toContain('BODY_LIMIT');
      expect(message).toContain('UPSTREAM_BATCH');
      expect(message).toContain('TRUSTED_PROXIES');
    }
  });

  it('when an upstream URL is not http(s), then it is refused', () => {
    expect(() => loadGatewayConfig({ UPSTREAM_SMS: 'ftp://sms' })).toThrow(ConfigError);
  });

  it('when the routing table names a service, then it has an UPSTREAM_ setting', () => {
    const config = loadGatewayConfig(
      Object.fromEntries(
        Object.keys(gatewayConfigSchema.shape)
          .filter((key) => key.startsWith('UPSTREAM_') && key !== 'UPSTREAM_TIMEOUT_MS')
          .map((key) => [key, `http://${key.toLowerCase()}`]),
      ),
    );
    const urls = upstreamUrls(config);
    for (const service of UPSTREAM_SERVICES) expect(urls[service], service).toMatch(/^http:\/\//);
  });

  it('when admin is looked for among the upstreams, then there is no setting for it', () => {
    expect(Object.keys(gatewayConfigSchema.shape)).not.toContain('UPSTREAM_ADMIN');
  });
});
