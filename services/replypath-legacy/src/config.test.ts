import { ConfigError } from '@msg/config';
import { describe, expect, it } from 'vitest';
import { loadReplypathLegacyConfig } from './config.js';

describe('loadReplypathLegacyConfig', () => {
  it('when the replypath service is given, then the defaults fill the rest', () => {
    const config = loadReplypathLegacyConfig({
      REPLYPATH_URL: 'http://replypath',
      REPLYPATH_INTERNAL_TOKEN: 't',
    });
    expect(config).toMatchObject({ PORT: 8080, REPLYPATH_TIMEOUT_MS: 10_000 });
  });

  it('when REPLYPATH_URL and REPLYPATH_INTERNAL_TOKEN are missing, then both are named', () => {
    expect(() => loadReplypathLegacyConfig({})).toThrow(ConfigError);
    expect(() => loadReplypathLegacyConfig({})).toThrow(
      /REPLYPATH_URL[\s\S]*REPLYPATH_INTERNAL_TOKEN/,
    );
  });
});
