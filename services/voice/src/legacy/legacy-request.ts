import type { AccountState } from '@msg/contracts';
import { normalizeMsisdn } from '@msg/phone';
import { LEGACY_LANGUAGES } from '@msg/speech';
import type { ValidateMarkup } from '../calls/ports.js';
import { type CallerIdPolicy, resolveCallerId } from '../messages/caller-id.js';
import type { NewVoiceMessage } from '../messages/message-store.js';
import { DEFAULT_PLAY_COUNT } from '../messages/send-rules.js';

export interface SendTtsQuery {
  User?: string;
  Pass?: string;
  To?: string;
  Msg?: string;
  Lang?: string;
  From?: string;
  ExternalReferenceId?: string;
}

/** What the legacy interface answers when it does not accept: 400 or 200 `request=false`. */
export class LegacyRefusal extends Error {
  constructor(
    readonly status: 200 | 400,
    message: string,
  ) {
    super(message);
  }
}

const malformed = (message: string) => new LegacyRefusal(400, message);

const MAX_TEXT = 5000;
const MAX_REFERENCE = 100;

/** The parameters that must be there (2.6's Required column, User and Pass checked first). */
export function requireParameters(query: SendTtsQuery): asserts query is SendTtsQuery & {
  User: string;
  Pass: string;
  To: string;
  Msg: string;
} {
  for (const name of ['User', 'Pass', 'To', 'Msg'] as const) {
    if (!query[name]) throw malformed(`missing parameter: ${name}`);
  }
}

/**
 * `To` in its three forms (2.6): international with `+`, `00`-prefixed international, and
 * `0`-prefixed Swedish national; answers E.164.
 */
export function legacyRecipient(to: string): string {
  const international = to.startsWith('00') ? `+${to.slice(2)}` : to;
  const number = normalizeMsisdn(international, { defaultCountry: 'SE' });
  if (!number.ok) throw malformed(`To: ${number.message}`);
  return number.e164;
}

/**
 * The legacy query as a message, in the order the interface checks it: recipient and text
 * (400), markup (400 malformed XML), language (200 `Unsupported language: <code>`), caller ID
 * (200 request=false, 7.5 rule 1).
 */
export function legacyMessage(
  account: AccountState,
  query: SendTtsQuery & { To: string; Msg: string },
  policy: CallerIdPolicy,
  validateMarkup: ValidateMarkup,
): NewVoiceMessage {
  const recipient = legacyRecipient(query.To);
  if (query.Msg.length > MAX_TEXT) throw malformed(`Msg: at most ${MAX_TEXT} characters`);
  if ((query.ExternalReferenceId?.length ?? 0) > MAX_REFERENCE) {
    throw malformed(`ExternalReferenceId: at most ${MAX_REFERENCE} characters`);
  }
  const markup = validateMarkup(query.Msg);
  if (!markup.ok) throw malformed(`Msg: malformed XML: ${markup.error}`);
  const code = query.Lang ?? 'EN';
  const language = LEGACY_LANGUAGES[code.toUpperCase()];
  if (!language) throw new LegacyRefusal(200, `Unsupported language: ${code}`);
  const caller = resolveCallerId(account, query.From || null, recipient, policy);
  if (!caller.ok) throw new LegacyRefusal(200, caller.msg);
  return {
    accountId: account.id,
    source: 'legacy',
    recipient,
    callerId: caller.callerId,
    text: query.Msg,
    markup: query.Msg,
    language,
    gender: 'male',
    instructions: null,
    machineDetection: false,
    playCount: DEFAULT_PLAY_COUNT,
    clientReference: query.ExternalReferenceId || null,
  };
}
