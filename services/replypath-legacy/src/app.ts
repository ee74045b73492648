import { openapiDocumentPath } from '@msg/contracts';
import { createService, type KitHttpOptions, statusLineErrorFormat } from '@msg/http';
import { type RequestHandler, Router } from 'express';
import { CHALLENGE } from './access/legacy-access.js';
import { requireContentLength } from './access/length-required.js';
import { DEPRECATION_HEADERS } from './deprecation-headers.js';
import { sendSms } from './operations/send-sms.js';
import type { ReplypathClient } from './replypath/replypath-client.js';

export interface ReplypathLegacyAppDeps {
  replypath: ReplypathClient;
  /**
   * The document's basicAuth: authentication, the 401s of rule 5.3 and the rate limit
   * (access/legacy-access.ts, built in service.ts).
   */
  access: RequestHandler;
  /** The kit's part of createService (ServiceContext.http of @msg/service-kit). */
  http: KitHttpOptions;
}

/** The largest JSON body: To (17 characters) and Msg (1530) with room for escapes. */
const BODY_LIMIT = '16kb';

/** The legacy reply-path HTTP app. Never listens: main.ts (or a test) does. */
export function createApp(deps: ReplypathLegacyAppDeps) {
  return createService({
    ...deps.http,
    name: 'replypath-legacy',
    openapiPath: openapiDocumentPath('replypath-legacy'),
    // { status: "400 Bad Request", message } (spec 7.3), with the deprecation headers.
    errorFormat: statusLineErrorFormat({ challenge: CHALLENGE, headers: DEPRECATION_HEADERS }),
    bodyLimit: BODY_LIMIT,
    // The 411 check runs with the access chain: the only step between routing and the document's
    // body validation, which would answer a POST without a body with a 400.
    authenticators: { basicAuth: Router().use(deps.access, requireContentLength) },
    routes: (app) => {
      app.get('/v1/replypath/sendsms', sendSms(deps.replypath, 'query'));
      app.post('/v1/replypath/sendsms', sendSms(deps.replypath, 'body'));
      app.get('/v1/replypath/sendsms/:to/:msg', sendSms(deps.replypath, 'path'));
    },
  });
}
