import { ConfigError } from '@msg/config';
import { describe, expect, it } from 'vitest';
import { loadLookupLegacyConfig } from './config.js';

describe('loadLookupLegacyConfig', () => {
  it('when the numbers service is given, then the defaults fill the rest', () => {
    const config = loadLookupLegacyConfig({
      NUMBERS_URL: 'http://numbers',
      NUMBERS_INTERNAL_TOKEN: 't',
    });
    expect(config).toMatchObject({ PORT: 8080, NUMBERS_TIMEOUT_MS: 5000 });
  });

  it('when DATABASE_URL is given, then it is kept for the shared rate buckets; unset, it stays unset', () => {
    const base = { NUMBERS_URL: 'http://numbers', NUMBERS_INTERNAL_TOKEN: 't' };
    const withDatabase = loadLookupLegacyConfig({
      ...base,
      DATABASE_URL: 'postgres://db.internal:5432/platform',
    });
    expect(withDatabase.DATABASE_URL).toBe('postgres://db.internal:5432/platform');
    expect(loadLookupLegacyConfig(base).DATABASE_URL).toBeUndefined();
    expect(() => loadLookupLegacyConfig({ ...base, DATABASE_URL: 'mysql://db/x' })).toThrow(
      /DATABASE_URL/,
    );
  });

  it('when NUMBERS_URL and NUMBERS_INTERNAL_TOKEN are missing, then both are named', () => {
    expect(() => loadLookupLegacyConfig({})).toThrow(ConfigError);
    expect(() => loadLookupLegacyConfig({})).toThrow(/NUMBERS_URL[\s\S]*NUMBERS_INTERNAL_TOKEN/);
  });
});
