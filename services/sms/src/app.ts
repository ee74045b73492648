import type { ProtectedSenderDirectory } from '@msg/auth';
import { openapiDocumentPath } from '@msg/contracts';
import {
  createService,
  type IdempotencyStore,
  jsonErrorFormat,
  type KitHttpOptions,
  type TargetPolicy,
} from '@msg/http';
import type { RequestHandler } from 'express';
import type { Messages } from './messages/messages.js';
import { getSms } from './operations/getSms.js';
import { sendSms } from './operations/sendSms.js';

export interface SmsAppDeps {
  messages: Messages;
  /** The operator's protected sender names (the kit's protectedSenders()), for `from`. */
  protectedSenders: Pick<ProtectedSenderDirectory, 'names'>;
  /**
   * The document's basicAuth: authentication, account guards and rate limit (@msg/auth
   * basicAccountAccess, built in service.ts).
   */
  basicAuth: RequestHandler;
  /** Idempotency-Key records of POST /v1/sms/send (createPostgresIdempotencyStore). */
  idempotencyStore: IdempotencyStore;
  /** The kit's part of createService (ServiceContext.http of @msg/service-kit). */
  http: KitHttpOptions;
  /** Whether callback_url may name a private host (CALLBACK_ALLOW_PRIVATE_TARGETS); refused by default. */
  clientUrls?: TargetPolicy;
}

/**
 * Bodies are one SMS: 1530 characters at most, escaped JSON included well under 16 kB, so a larger
 * body is refused (413) before it is parsed.
 */
export const SMS_BODY_LIMIT = '16kb';

/** The SMS service's HTTP app. Never listens: main.ts (or a test) does. */
export function createApp(deps: SmsAppDeps) {
  return createService({
    ...deps.http,
    name: 'sms',
    openapiPath: openapiDocumentPath('sms'),
    errorFormat: jsonErrorFormat,
    bodyLimit: SMS_BODY_LIMIT,
    ...(deps.clientUrls && { clientUrls: deps.clientUrls }),
    authenticators: { basicAuth: deps.basicAuth },
    idempotency: { store: deps.idempotencyStore, scope: (req) => req.account?.id },
    routes: (app) => {
      app.post('/v1/sms/send', sendSms(deps.messages, deps.protectedSenders));
      app.get('/v1/sms/:messageId', getSms(deps.messages));
    },
  });
}
