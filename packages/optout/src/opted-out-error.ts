import { HttpError } from '@msg/http';

/** The rule a refused send names (`details[].type`). */
export const OPTED_OUT_RULE = 'opted_out';

/**
 * A send to a recipient who opted out of the account's messages: 400 `RECIPIENT_OPTED_OUT` (as
 * Twilio answers 400 / 21610), naming the recipient field and the rule. `field` is where the
 * interface takes the recipient: `['body', 'to']` for POST /v1/sms/send, `['body', 'To']` for
 * reply-path.
 */
export class OptedOutError extends HttpError {
  constructor(field: string[] = ['body', 'to']) {
    const msg =
      'the recipient has opted out of messages from this account (replied a stop word); ' +
      'a start word from the recipient or an operator lifts it';
    super(400, 'RECIPIENT_OPTED_OUT', `${field.join('.')}: ${msg}`, [
      { loc: field, msg, type: OPTED_OUT_RULE },
    ]);
  }
}
