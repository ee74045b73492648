import { describe, expect, it } from 'vitest';
import { loadAdminConfig } from './config.js';

const ADMIN_TOKEN = 'admin-token-0123456789';

describe('loadAdminConfig: billing', () => {
  it('when only the admin token is given, then no billing token and debits kept 30 days', () => {
    const config = loadAdminConfig({ ADMIN_TOKEN });
    expect(config.BILLING_INTERNAL_TOKEN).toBeUndefined();
    expect(config.DEBIT_RETENTION).toBe(30 * 24 * 3_600_000);
  });

  it('when the billing token and a retention are given, then both are read', () => {
    expect(
      loadAdminConfig({ ADMIN_TOKEN, BILLING_INTERNAL_TOKEN: 'billing', DEBIT_RETENTION: '48h' }),
    ).toMatchObject({ BILLING_INTERNAL_TOKEN: 'billing', DEBIT_RETENTION: 48 * 3_600_000 });
  });

  it('when the retention is not a duration, then loading fails naming it', () => {
    expect(() => loadAdminConfig({ ADMIN_TOKEN, DEBIT_RETENTION: 'a month' })).toThrow(
      /DEBIT_RETENTION/,
    );
  });
});
