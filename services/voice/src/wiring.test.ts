import { describe, expect, it } from 'vitest';
import { loadVoiceConfig } from './config.js';
import { deployedDependencies } from './wiring.js';

const config = (env: Record<string, string> = {}) =>
  loadVoiceConfig({ VOICE_DEFAULT_CALLER_ID: '+46812345678', ...env });

describe('deployedDependencies', () => {
  it('when no SIP trunk is configured, then the process refuses to start, naming the setting', async () => {
    await expect(deployedDependencies(config())).rejects.toThrow(/VOICE_SIP_TRUNK/);
  });

  it('when a trunk and a translation URL are configured, then speech, SIP, markup parser and translator are built and close', async () => {
    const deps = await deployedDependencies(
      config({
        VOICE_SIP_TRUNK: 'sip:127.0.0.2:5099',
        VOICE_TRANSLATE_URL: 'http://127.0.0.1:9',
      }),
    );
    try {
      expect(deps.translator).toBeDefined();
      expect(deps.validateMarkup?.('a <break time="1s"/> b')).toMatchObject({ ok: true });
      expect(deps.validateMarkup?.('a <b>')).toMatchObject({ ok: false });
    } finally {
      await Promise.all([deps.sip.close(), deps.speech.close()]);
    }
  });

  it('when no translation URL is configured, then there is no translator (text spoken as given)', async () => {
    const deps = await deployedDependencies(config({ VOICE_SIP_TRUNK: 'sip:127.0.0.2:5099' }));
    try {
      expect(deps.translator).toBeUndefined();
    } finally {
      await Promise.all([deps.sip.close(), deps.speech.close()]);
    }
  });
});
