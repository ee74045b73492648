import type { Sql } from '@msg/db';
import { HttpError } from '@msg/http';
import { OptedOutError, optedOutAmong } from '@msg/optout';
import { REPLYPATH_SCHEMA } from '../schema.js';

/** Where the current interface takes the recipients (the legacy service relocates it). */
const TO = ['body', 'To'];

/**
 * The refusal of a send when any recipient opted out of the account's messages (the replica of
 * optouts.v1, @msg/optout): 400 `RECIPIENT_OPTED_OUT`, `details.type` `opted_out`, as the SMS
 * service answers. All or nothing like the rest of a send with several recipients: the whole
 * request is refused and the message names which recipient ("recipient 2 of 3: ...", as the
 * validation messages do), every opted-out one when several are; `details` is the first (7.2).
 */
export function optedOutError(
  recipients: readonly string[],
  optedOut: ReadonlySet<string>,
): HttpError {
  const { code, details } = new OptedOutError(TO);
  const rule = details[0] ?? { loc: TO, msg: 'opted out', type: 'opted_out' };
  const refused = recipients.flatMap((recipient, i) =>
    optedOut.has(recipient)
      ? [
          {
            ...rule,
            msg:
              recipients.length > 1
                ? `recipient ${i + 1} of ${recipients.length}: ${rule.msg}`
                : rule.msg,
          },
        ]
      : [],
  );
  return new HttpError(
    400,
    code,
    refused.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '),
    refused,
  );
}

/**
 * Which recipients opted out of the account: one primary-key lookup for all. A send asks through
 * submitSms (before anything is paid or allocated); a dry run asks itself.
 */
export const optedOutOf = (sql: Sql, accountId: string, recipients: readonly string[]) =>
  optedOutAmong(sql, REPLYPATH_SCHEMA, accountId, recipients);
