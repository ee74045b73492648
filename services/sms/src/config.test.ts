import { describe, expect, it } from 'vitest';
import { loadSmsConfig } from './config.js';

describe('loadSmsConfig', () => {
  it('when the billing API is not given, then it is absent (prepaid sends are refused, postpaid go)', () => {
    const config = loadSmsConfig({});
    expect(config.ADMIN_URL).toBeUndefined();
    expect(config.BILLING_INTERNAL_TOKEN).toBeUndefined();
  });

  it('when ADMIN_URL and BILLING_INTERNAL_TOKEN are given, then both are kept', () => {
    expect(
      loadSmsConfig({ ADMIN_URL: 'http://admin:8080', BILLING_INTERNAL_TOKEN: 'billing-token' }),
    ).toMatchObject({ ADMIN_URL: 'http://admin:8080', BILLING_INTERNAL_TOKEN: 'billing-token' });
  });

  it('when ADMIN_URL is not an http(s) URL, then loading fails naming it', () => {
    expect(() => loadSmsConfig({ ADMIN_URL: 'admin' })).toThrow(/ADMIN_URL/);
  });
});
