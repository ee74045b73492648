import { ConfigError } from '@msg/config';
import { describe, expect, it } from 'vitest';
import { loadVoiceConfig } from './config.js';

describe('loadVoiceConfig', () => {
  it('when only the default caller ID is set, then the 3.4 and 6.4 defaults apply', () => {
    expect(loadVoiceConfig({ VOICE_DEFAULT_CALLER_ID: '+46812345678' })).toMatchObject({
      VOICE_REATTEMPT_INTERVAL: 120_000,
      VOICE_RING_TIMEOUT: 20_000,
      VOICE_REPORT_RETRY_PERIOD: 3_600_000,
      VOICE_CONCURRENT_CALLS: 20,
    });
  });

  it('when provisioned numbers are listed, then they are read as a list', () => {
    const config = loadVoiceConfig({
      VOICE_DEFAULT_CALLER_ID: '+46812345678',
      VOICE_PROVISIONED_NUMBERS: '+46701111111, +46702222222',
    });
    expect(config.VOICE_PROVISIONED_NUMBERS).toEqual(['+46701111111', '+46702222222']);
  });

  it('when the caller IDs are not E.164 or the default is missing, then every problem is named', () => {
    const problem = (() => {
      try {
        loadVoiceConfig({ VOICE_PROVISIONED_NUMBERS: 'ACME', VOICE_SIP_TRUNK: 'http://x' });
      } catch (err) {
        return err;
      }
    })();
    expect(problem).toBeInstanceOf(ConfigError);
    const text = String((problem as Error).message);
    for (const key of ['VOICE_DEFAULT_CALLER_ID', 'VOICE_PROVISIONED_NUMBERS', 'VOICE_SIP_TRUNK']) {
      expect(text).toContain(key);
    }
  });

  it('when SIP and RTP ports are given, then the range is read as two even-based bounds; a bad range is named', () => {
    const config = loadVoiceConfig({
      VOICE_DEFAULT_CALLER_ID: '+46812345678',
      VOICE_SIP_PORT: '5060',
      VOICE_RTP_PORTS: '20000-20999',
    });
    expect(config).toMatchObject({ VOICE_SIP_PORT: 5060, VOICE_RTP_PORTS: [20000, 20999] });
    for (const bad of ['20001-20999', '20000', '20999-20000', '20000-70000']) {
      expect(() =>
        loadVoiceConfig({ VOICE_DEFAULT_CALLER_ID: '+46812345678', VOICE_RTP_PORTS: bad }),
      ).toThrow(/VOICE_RTP_PORTS/);
    }
  });
});
