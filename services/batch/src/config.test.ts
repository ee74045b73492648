import { describe, expect, it } from 'vitest';
import { loadBatchConfig } from './config.js';

const jwt = { JWT_KEYS: `k1:${'s'.repeat(32)}`, JWT_ACTIVE_KID: 'k1' };

describe('loadBatchConfig: prepaid billing', () => {
  it('when the billing API is not given, then it is absent (prepaid chunks wait, postpaid go)', () => {
    const config = loadBatchConfig(jwt);
    expect(config.ADMIN_URL).toBeUndefined();
    expect(config.BILLING_INTERNAL_TOKEN).toBeUndefined();
  });

  it('when ADMIN_URL and BILLING_INTERNAL_TOKEN are given, then both are kept', () => {
    expect(
      loadBatchConfig({
        ...jwt,
        ADMIN_URL: 'http://admin:8080',
        BILLING_INTERNAL_TOKEN: 'billing-token',
      }),
    ).toMatchObject({ ADMIN_URL: 'http://admin:8080', BILLING_INTERNAL_TOKEN: 'billing-token' });
  });

  it('when ADMIN_URL is not an http(s) URL, then loading fails naming it', () => {
    expect(() => loadBatchConfig({ ...jwt, ADMIN_URL: 'admin' })).toThrow(/ADMIN_URL/);
  });
});
