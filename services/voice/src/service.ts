import { fileURLToPath } from 'node:url';
import {
  basicAccountAccess,
  createCredentialVerifier,
  createPostgresRateLimiter,
  RATE_LIMIT_MIGRATIONS_DIR,
} from '@msg/auth';
import { OUTBOX_MIGRATIONS_DIR } from '@msg/bus';
import { Topics } from '@msg/contracts';
import { createPostgresIdempotencyStore, IDEMPOTENCY_MIGRATIONS_DIR } from '@msg/http';
import {
  type DeclaredService,
  defineService,
  type ServiceDependencies,
  startWithBackground,
} from '@msg/service-kit';
import { parseSpeechMarkup } from '@msg/speech';
import type { LanguageDetector, Translator } from '@msg/translate';
import { createApp } from './app.js';
import { createAttemptStore } from './calls/attempt-store.js';
import { startCallWorker } from './calls/call-worker.js';
import type { SipCaller, SpeechEngine, ValidateMarkup } from './calls/ports.js';
import { loadVoiceConfig, type VoiceConfig } from './config.js';
import type { CallerIdPolicy } from './messages/caller-id.js';
import { createMessageStore } from './messages/message-store.js';
import { TEXT_TO_VOICE } from './permission.js';
import { VOICE_SCHEMA } from './schema.js';

/** What the schema is made of: the outbox, the rate buckets, the Idempotency-Key records, its tables. */
export const VOICE_MIGRATIONS = [
  OUTBOX_MIGRATIONS_DIR,
  RATE_LIMIT_MIGRATIONS_DIR,
  IDEMPOTENCY_MIGRATIONS_DIR,
  fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
];

/**
 * THE INJECTION POINT of speech, telephony and translation. The service does not build them:
 * the deployed process passes the speech engine (@msg/speech createSpeechEngine), the SIP caller
 * (@msg/sip-call createSipCaller on VOICE_SIP_TRUNK) and the translator of VOICE_TRANSLATE_URL
 * (src/wiring.ts, deployedDependencies); tests pass fakes. The service closes speech and SIP at
 * shutdown.
 */
export interface VoiceDependencies {
  speech: SpeechEngine;
  sip: SipCaller;
  /** The legacy Msg check; default @msg/speech parseSpeechMarkup. */
  validateMarkup?: ValidateMarkup;
  /** Spec 4.6's translator; absent: text in another language is spoken as given (logged). */
  translator?: Translator;
  /** The language detector before translation; default @msg/translate detectLanguage. */
  detector?: LanguageDetector;
  /** The clock of acceptance, claims, reattempts and leases; tests inject one. */
  now?: () => Date;
}

/**
 * What voice writes and reads: its delivery reports as callbacks.v1 requests, and the account
 * directory. Apart from the definition, which needs speech and telephony to be built, so that the
 * AsyncAPI generator (infra/suite) can read them.
 */
export const voiceTopics = {
  name: 'voice',
  publishes: [Topics.callbacks],
  follows: ['accounts'],
} as const satisfies DeclaredService;

/**
 * The text-to-voice service: schema "voice" and the account directory before it serves; once it
 * listens, the outbox relay (callbacks.v1: the delivery reports) and the call worker.
 */
export function voiceService(dependencies: VoiceDependencies) {
  return defineService({
    loadConfig: loadVoiceConfig,
    database: { schema: VOICE_SCHEMA, migrations: VOICE_MIGRATIONS },
    ...voiceTopics,
    async start(config: VoiceConfig, kit) {
      const directory = await kit.accountDirectory();
      kit.outboxRelay();
      const now = dependencies.now ?? (() => new Date());
      const validateMarkup = dependencies.validateMarkup ?? parseSpeechMarkup;
      const policy: CallerIdPolicy = {
        serviceDefault: config.VOICE_DEFAULT_CALLER_ID,
        provisioned: config.VOICE_PROVISIONED_NUMBERS ?? [],
      };
      const verifier = createCredentialVerifier({ directory });
      // One bucket per account for REST and legacy: the account's own rate (spec 8.5).
      const limiter = createPostgresRateLimiter({ pool: kit.pool, schema: VOICE_SCHEMA });
      if (!dependencies.translator) {
        kit.logger.info(
          'voice: no translator configured (VOICE_TRANSLATE_URL): text in another language than its language is spoken as given',
        );
      }
      kit.onStop('voice-speech', () => dependencies.speech.close());
      kit.onStop('voice-sip', () => dependencies.sip.close());
      kit.afterListen('voice-calls', () =>
        startCallWorker({
          attempts: createAttemptStore(kit.pool),
          speech: dependencies.speech,
          sip: dependencies.sip,
          validateMarkup,
          ...(dependencies.translator && { translator: dependencies.translator }),
          ...(dependencies.detector && { detector: dependencies.detector }),
          accounts: directory,
          logger: kit.logger,
          now,
          reattemptIntervalMs: config.VOICE_REATTEMPT_INTERVAL,
          ringTimeoutMs: config.VOICE_RING_TIMEOUT,
          leaseMs: config.VOICE_CALL_LEASE,
          pollIntervalMs: config.VOICE_POLL_INTERVAL,
          concurrency: config.VOICE_CONCURRENT_CALLS,
          reportRetryPeriodMs: config.VOICE_REPORT_RETRY_PERIOD,
        }),
      );
      const app = createApp({
        messages: createMessageStore(kit.pool, now),
        policy,
        validateMarkup,
        basicAuth: basicAccountAccess(verifier, {
          realm: 'Text-to-voice',
          permission: TEXT_TO_VOICE,
          limiter,
        }),
        verifier,
        limiter,
        idempotencyStore: createPostgresIdempotencyStore({ pool: kit.pool, schema: VOICE_SCHEMA }),
        http: kit.http,
      });
      return { app, accounts: directory };
    },
  });
}

/** The whole service, background included, without listening (component tests). */
export const startVoiceService = (
  config: VoiceConfig,
  runtime: ServiceDependencies,
  dependencies: VoiceDependencies,
) => startWithBackground(voiceService(dependencies), config, runtime);

export type VoiceService = Awaited<ReturnType<typeof startVoiceService>>;
