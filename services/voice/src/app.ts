import type { CredentialVerifier, RequestRateLimiter } from '@msg/auth';
import { openapiDocumentPath } from '@msg/contracts';
import { createService, type IdempotencyStore, type KitHttpOptions } from '@msg/http';
import type { RequestHandler } from 'express';
import type { ValidateMarkup } from './calls/ports.js';
import { voiceErrorFormat } from './http/error-format.js';
import { SENDTTS_PATH } from './legacy/legacy-answer.js';
import type { CallerIdPolicy } from './messages/caller-id.js';
import type { MessageStore } from './messages/message-store.js';
import { getHealth } from './operations/getHealth.js';
import { getVoiceMessage } from './operations/getVoiceMessage.js';
import { sendTts } from './operations/sendTts.js';
import { sendVoiceMessage } from './operations/sendVoiceMessage.js';

export interface VoiceAppDeps {
  messages: MessageStore;
  policy: CallerIdPolicy;
  validateMarkup: ValidateMarkup;
  /** The document's basicAuth: 401, 403 (disabled, no text_to_voice, IP), 429 (basicAccountAccess). */
  basicAuth: RequestHandler;
  /** The legacy interface's User/Pass and its rate (same bucket as REST). */
  verifier: CredentialVerifier;
  limiter: RequestRateLimiter;
  idempotencyStore: IdempotencyStore;
  /** The kit's part of createService (ServiceContext.http of @msg/service-kit). */
  http: KitHttpOptions;
}

/** A message is at most 5000 + 500 characters of text: 64 kB holds it escaped, with room. */
export const VOICE_BODY_LIMIT = '64kb';

/** The text-to-voice HTTP app. Never listens: the service kit (or a test) does. */
export function createApp(deps: VoiceAppDeps) {
  return createService({
    ...deps.http,
    name: 'voice',
    openapiPath: openapiDocumentPath('voice'),
    errorFormat: voiceErrorFormat,
    bodyLimit: VOICE_BODY_LIMIT,
    authenticators: { basicAuth: deps.basicAuth },
    idempotency: { store: deps.idempotencyStore, scope: (req) => req.account?.id },
    routes: (app) => {
      app.get('/txt2voice/v1/health', getHealth());
      app.post('/txt2voice/v1/messages', sendVoiceMessage(deps.messages, deps.policy));
      app.get('/txt2voice/v1/messages/:transaction_id', getVoiceMessage(deps.messages));
      app.get(
        SENDTTS_PATH,
        sendTts({
          messages: deps.messages,
          verifier: deps.verifier,
          limiter: deps.limiter,
          policy: deps.policy,
          validateMarkup: deps.validateMarkup,
        }),
      );
    },
  });
}
