import type { Sql } from '@msg/db';
import { HttpError } from '@msg/http';
import { OptedOutError, optedOutAmong } from '@msg/optout';
import { REPLYPATH_SCHEMA } from '../schema.js';

/** Where the current interface takes the recipients (the legacy service relocates it). */
const TO = ['body', 'To'];

/**
 * Refuses a send when any recipient opted out of the account's messages (the replica of
 * optouts.v1, @msg/optout): 400 `RECIPIENT_OPTED_OUT`, `details.type` `opted_out`, as the SMS
 * service answers. All or nothing like the rest of a send with several recipients: the whole
 * request is refused and the message names which recipient ("recipient 2 of 3: ...", as the
 * validation messages do), every opted-out one when several are; `details` is the first (7.2).
 * One primary-key lookup for all recipients; checked before anything is paid or allocated.
 */
export async function refuseOptedOut(
  sql: Sql,
  accountId: string,
  recipients: readonly string[],
): Promise<void> {
  const optedOut = await optedOutAmong(sql, REPLYPATH_SCHEMA, accountId, recipients);
  if (optedOut.size === 0) return;
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
  throw new HttpError(
    400,
    code,
    refused.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '),
    refused,
  );
}
