import { hashSecret } from '@msg/auth';
import { type AccountState, type EventEnvelope, Topics } from '@msg/contracts';
import {
  accountState,
  eventually,
  publishAccount,
  startTestRuntime,
  type TestRuntime,
} from '@msg/testing';
import type { Translator } from '@msg/translate';
import request from 'supertest';
import type { SipCaller, SpeechEngine } from '../src/calls/ports.js';
import { loadVoiceConfig } from '../src/config.js';
import { startVoiceService } from '../src/service.js';
import { fakeSipCaller, fakeSpeech } from './fakes.js';

type FakeSip = ReturnType<typeof fakeSipCaller>;
type FakeSpeech = ReturnType<typeof fakeSpeech>;

export const PASSWORD = 'voice-test-password';
/** VOICE_DEFAULT_CALLER_ID of the tests. */
export const SERVICE_CALLER_ID = '+46812345678';
/** VOICE_PROVISIONED_NUMBERS of the tests. */
export const PROVISIONED = '+46701111111';
export const REGISTERED = '+4420700000001';
/** The voice report URL of `reportingAccount()`. */
export const REPORT_URL = 'https://reports.example.com/voice';

export interface TestOptions<
  Sip extends SipCaller = FakeSip,
  Speech extends SpeechEngine = FakeSpeech,
> {
  env?: Record<string, string>;
  /** Share another instance's database and bus (a second replica, a restart). */
  runtime?: TestRuntime;
  /**
   * The SIP caller (default: a fake answering every call), the speech engine (default: a fake
   * failing only "cannot be spoken") and a translator; the integration tests pass the real ones.
   * The service closes caller and engine when it stops.
   */
  deps?: { sip?: Sip; speech?: Speech; now?: () => Date; translator?: Translator };
}

const passwordHash = await hashSecret(PASSWORD);

/**
 * The voice service on embedded Postgres and the in-process bus, with fake speech and SIP ports,
 * a recorder of callbacks.v1, and helpers that play the admin service.
 */
export async function startTestVoice<
  Sip extends SipCaller = FakeSip,
  Speech extends SpeechEngine = FakeSpeech,
>(options: TestOptions<Sip, Speech> = {}) {
  const runtime = options.runtime ?? (await startTestRuntime({ service: 'voice' }));
  const ownsRuntime = !options.runtime;
  // The fake speech engine fails for one text, so tests can reach failure_code 5. The casts hold
  // because a test that passes no engine (no caller) gets the default type parameter, the fake.
  const speech =
    options.deps?.speech ?? (fakeSpeech((r) => r.text === 'cannot be spoken') as unknown as Speech);
  const sip = options.deps?.sip ?? (fakeSipCaller() as unknown as Sip);
  const service = await startVoiceService(
    loadVoiceConfig({
      LOG_LEVEL: 'error',
      NODE_ENV: 'test',
      VOICE_DEFAULT_CALLER_ID: SERVICE_CALLER_ID,
      VOICE_PROVISIONED_NUMBERS: PROVISIONED,
      VOICE_REATTEMPT_INTERVAL: '150ms',
      VOICE_POLL_INTERVAL: '20ms',
      ...options.env,
    }),
    runtime,
    {
      speech,
      sip,
      ...(options.deps?.now && { now: options.deps.now }),
      ...(options.deps?.translator && { translator: options.deps.translator }),
    },
  );
  const published: { topic: string; value: EventEnvelope }[] = [];
  const recorder = await runtime.bus.subscribe({
    groupId: `voice-test-recorder-${Math.random()}`,
    topics: [Topics.callbacks],
    fromBeginning: true,
    handler: async ({ topic, value }) => {
      published.push({ topic, value: value as EventEnvelope });
    },
  });
  const app = service.app;
  const auth = (acct: AccountState) =>
    `Basic ${Buffer.from(`${acct.name}:${PASSWORD}`).toString('base64')}`;

  return {
    app,
    runtime,
    pool: runtime.pool,
    speech,
    sip,
    published,
    service,

    /** An active account with text_to_voice, the test password and one registered caller ID. */
    account(overrides: Partial<AccountState> = {}): AccountState {
      return accountState({
        passwordHash,
        permissions: ['text_to_voice'],
        voiceCallerIds: [REGISTERED, PROVISIONED],
        ...overrides,
      });
    },

    /** `account()` with a voice report URL (REPORT_URL): its finished messages are reported. */
    reportingAccount(overrides: Partial<AccountState> = {}): AccountState {
      return this.account({
        callbacks: {
          replyPathUrl: null,
          replyPathMethod: 'POST',
          deliveryReportUrl: null,
          voiceReportUrl: REPORT_URL,
        },
        ...overrides,
      });
    },

    async publishAccount(state: AccountState): Promise<AccountState> {
      return publishAccount(
        runtime.bus,
        state,
        (s) => service.accounts.byId(s.id)?.version === s.version,
      );
    },

    send(acct: AccountState, body: string | object) {
      const req = request(app).post('/txt2voice/v1/messages').set('authorization', auth(acct));
      return typeof body === 'string'
        ? req.set('content-type', 'application/json').send(body)
        : req.send(body);
    },

    status(acct: AccountState, transactionId: string) {
      return request(app)
        .get(`/txt2voice/v1/messages/${transactionId}`)
        .set('authorization', auth(acct));
    },

    sendtts(query: Record<string, string>) {
      return request(app).get('/txt2voice/v1/sendtts').query(query);
    },

    raw: () => request(app),

    /** Waits until the message reached a final state and answers its status. */
    async finished(acct: AccountState, transactionId: string, timeoutMs?: number) {
      return eventually(
        async () => {
          const res = await this.status(acct, transactionId);
          return res.body.status !== 'accepted' ? res.body : undefined;
        },
        `message ${transactionId} finished`,
        timeoutMs,
      );
    },

    /** The callbacks.v1 requests published so far about `transactionId`. */
    reportsOf(transactionId: string) {
      return published
        .filter((p) => p.topic === Topics.callbacks)
        .map(
          (p) =>
            p.value.payload as {
              query: Record<string, string>;
              url: string;
              method: string;
              giveUpAt: string;
            },
        )
        .filter((r) => r.query.TransactionId === transactionId);
    },

    /** Stops the service (and the runtime when it is its own). */
    async stop() {
      await recorder.stop();
      await service.stop();
      if (ownsRuntime) await runtime.stop();
    },
  };
}

export type TestVoice = Awaited<ReturnType<typeof startTestVoice<FakeSip, FakeSpeech>>>;
