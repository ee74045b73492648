import {
  csv,
  durationMs,
  envField,
  int,
  loadConfig,
  secret,
  serviceSettings,
  trustSettings,
  url,
  z,
} from '@msg/config';
import { isStrictE164 } from '@msg/phone';
import { parseSipTrunk } from './calls/sip-trunk.js';

/** A strict E.164 caller ID (the service default, provisioned numbers). */
const e164 = () =>
  envField('expected a strict E.164 number such as +46812345678', (raw) =>
    isStrictE164(raw) ? raw : undefined,
  );

/** The service's own settings; DATABASE_URL and KAFKA_BROKERS are the service kit's. */
export const voiceSettings = z.object({
  ...serviceSettings.shape,
  ...trustSettings.shape,
  VOICE_SIP_TRUNK: envField('expected sip:[user[:password]@]host[:port]', (raw) =>
    parseSipTrunk(raw) ? raw : undefined,
  )
    .optional()
    .describe(
      'The SIP trunk calls go to, `sip:[user[:password]@]host[:port]` (UDP, port 5060 by default; src/calls/sip-trunk.ts parses it for @msg/sip-call createSipCaller)',
    )
    .meta({ secret: true }),
  VOICE_SIP_LOCAL_ADDRESS: z
    .ipv4()
    .default('127.0.0.1')
    .describe(
      'Our IPv4 address for SIP and RTP: bound, and announced in Via, Contact and SDP; the trunk must reach it (it may not be the trunk host itself: @msg/sip-call then cannot route the INVITE)',
    ),
  VOICE_SIP_PORT: int({ min: 0, max: 65_535, default: 0 }).describe(
    'UDP port of our SIP user agent; 0: a free port (development); 5060 where a trunk allow-lists it',
  ),
  VOICE_RTP_PORTS: envField('expected two even ports low-high, e.g. 20000-20999', (raw) => {
    const match = /^(\d{1,5})-(\d{1,5})$/.exec(raw);
    const [low, high] = [Number(match?.[1]), Number(match?.[2])];
    return match && low % 2 === 0 && low < high && high <= 65_535
      ? ([low, high] as [number, number])
      : undefined;
  })
    .optional()
    .describe(
      'UDP port range of call audio (RTP), one even port per call, e.g. 20000-20999 for a firewall rule; unset: free ports',
    ),
  VOICE_DEFAULT_CALLER_ID: e164().describe(
    "The service's default caller ID (spec 2.6 rule 3): used when neither the request nor the account names one; provisioned for Swedish destinations",
  ),
  VOICE_PROVISIONED_NUMBERS: csv()
    .refine(
      (numbers) => numbers.every(isStrictE164),
      'expected strict E.164 numbers such as +46812345678',
    )
    .optional()
    .describe(
      'Caller IDs provisioned through the service (comma-separated E.164): the only client caller IDs a call to a Swedish number (+46) may show; the default caller ID always counts',
    ),
  VOICE_REATTEMPT_INTERVAL: durationMs('2m').describe(
    'Pause between an unanswered or busy call and the next attempt (spec 3.4: 2 reattempts, 2 minutes apart)',
  ),
  VOICE_RING_TIMEOUT: durationMs('20s').describe(
    'How long a call rings before it is cancelled as unanswered; 3 attempts of 20 s and 2 pauses of 2 m: the last outcome of an unanswered message is known 5 minutes after submission (spec 4.6)',
  ),
  VOICE_CALL_LEASE: durationMs('10m').describe(
    "How long a claimed call attempt stays a worker's; a crashed worker's attempt is retaken after it (longer than ring time + 10 plays of the longest audio)",
  ),
  VOICE_POLL_INTERVAL: durationMs('1s').describe(
    'Pause between looks for due call attempts when none was found',
  ),
  VOICE_CONCURRENT_CALLS: int({ min: 1, max: 1000, default: 20 }).describe(
    'Calls one replica places at the same time',
  ),
  VOICE_SPEECH_WORKERS: int({ min: 1, max: 64, default: 1 }).describe(
    'Speech synthesis worker processes (eSpeak NG, @msg/speech); more texts than workers wait their turn',
  ),
  VOICE_TRANSLATE_URL: url({ protocols: ['http:', 'https:'] })
    .optional()
    .describe(
      'Base URL of a LibreTranslate-compatible API (spec 4.6: text in another language is translated before speech); unset: such text is spoken as given',
    ),
  VOICE_TRANSLATE_API_KEY: secret()
    .optional()
    .describe('API key sent to the translation API (`api_key`), when it wants one'),
  VOICE_TRANSLATE_TIMEOUT: durationMs('10s').describe(
    'How long one translation request may take before the attempt fails (failure_code 5)',
  ),
  VOICE_REPORT_RETRY_PERIOD: durationMs('1h').describe(
    'How long the notifier retries a delivery report to an unreachable URL before giving it up (spec 6.4 "a limited period")',
  ),
});

export type VoiceConfig = z.infer<typeof voiceSettings>;

export function loadVoiceConfig(env: NodeJS.ProcessEnv = process.env): VoiceConfig {
  return loadConfig(voiceSettings, env);
}
