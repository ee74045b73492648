import { createSipCaller } from '@msg/sip-call';
import { createSpeechEngine, parseSpeechMarkup } from '@msg/speech';
import { createTranslator } from '@msg/translate';
import { parseSipTrunk } from './calls/sip-trunk.js';
import type { VoiceConfig } from './config.js';
import type { VoiceDependencies } from './service.js';

/**
 * The deployed process's speech engine (eSpeak NG in worker processes), SIP caller on
 * VOICE_SIP_TRUNK, strict legacy markup parser, and translator when VOICE_TRANSLATE_URL is set.
 * Without a trunk the process refuses to start rather than accept calls it cannot place.
 */
export async function deployedDependencies(config: VoiceConfig): Promise<VoiceDependencies> {
  const trunk = config.VOICE_SIP_TRUNK && parseSipTrunk(config.VOICE_SIP_TRUNK);
  if (!trunk) {
    throw new Error(
      'voice: VOICE_SIP_TRUNK is required to place calls (sip:[user:pass@]host:port)',
    );
  }
  const sip = await createSipCaller({
    trunk,
    localAddress: config.VOICE_SIP_LOCAL_ADDRESS,
    sipPort: config.VOICE_SIP_PORT,
    ...(config.VOICE_RTP_PORTS && { rtpPorts: config.VOICE_RTP_PORTS }),
  });
  const speech = createSpeechEngine({ workers: config.VOICE_SPEECH_WORKERS });
  const translator = config.VOICE_TRANSLATE_URL
    ? createTranslator({
        url: config.VOICE_TRANSLATE_URL,
        ...(config.VOICE_TRANSLATE_API_KEY && { apiKey: config.VOICE_TRANSLATE_API_KEY }),
        timeoutMs: config.VOICE_TRANSLATE_TIMEOUT,
      })
    : undefined;
  return {
    speech,
    sip,
    validateMarkup: parseSpeechMarkup,
    ...(translator && { translator }),
  };
}
