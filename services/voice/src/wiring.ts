import type { VoiceConfig } from './config.js';
import type { VoiceDependencies } from './service.js';

/**
 * The deployed process's speech engine and SIP caller. NOT WIRED YET: @msg/speech and
 * @msg/sip-call are being written beside this service; at merge this becomes
 * `{ speech: createSpeechEngine(), sip: await createSipCaller({ trunk: parseSipTrunk(config.VOICE_SIP_TRUNK) }),
 *    validateMarkup: parseSpeechMarkup }`. Until then the process refuses to start rather than
 * accept calls it cannot place.
 */
export async function deployedDependencies(_config: VoiceConfig): Promise<VoiceDependencies> {
  throw new Error(
    'voice: the speech engine (@msg/speech) and SIP caller (@msg/sip-call) are not wired yet (src/wiring.ts)',
  );
}
