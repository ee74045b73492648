import { requireAccount } from '@msg/auth';
import type { Request, RequestHandler } from 'express';
import { DEPRECATION_HEADERS } from '../deprecation-headers.js';
import type { ReplypathClient } from '../replypath/replypath-client.js';
import { type LegacyForm, sendLegacy } from '../send/legacy-send.js';

/** To and Msg as the document has already checked them (present, strings). */
type Fields = (req: Request) => { To: string; Msg: string };

/** Where each form of spec 4.4 carries To and Msg. */
export const FIELDS: Record<LegacyForm, Fields> = {
  // GET /v1/replypath/sendsms?To=..&Msg=..
  query: (req) => req.query as { To: string; Msg: string },
  // GET /v1/replypath/sendsms/{to}/{msg}: segments already percent-decoded by the router.
  path: (req) => ({ To: String(req.params.to), Msg: String(req.params.msg) }),
  // POST /v1/replypath/sendsms with JSON { To, Msg }.
  body: (req) => req.body as { To: string; Msg: string },
};

/** The handler of one form: send through the reply-path service, 200 with the JSON array of 2.4. */
export function sendSms(client: ReplypathClient, form: LegacyForm): RequestHandler {
  return async (req, res) => {
    const { To, Msg } = FIELDS[form](req);
    const accountId = requireAccount(req).id;
    const results = await sendLegacy(client, { accountId, form, To, Msg });
    res.set(DEPRECATION_HEADERS).json(results);
  };
}
