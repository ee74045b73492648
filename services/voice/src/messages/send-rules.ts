import type { AccountState } from '@msg/contracts';
import type { components } from '@msg/contracts/voice';
import { HttpError, ValidationError } from '@msg/http';
import { canonicalLanguage } from '@msg/speech';
import { type CallerIdPolicy, resolveCallerId } from './caller-id.js';
import type { NewVoiceMessage } from './message-store.js';

export type SendVoiceRequest = components['schemas']['SendVoiceRequest'];

/** 2.6's defaults for members the request leaves out. */
export const DEFAULT_LANGUAGE = 'en-GB';
export const DEFAULT_PLAY_COUNT = 3;

/** A caller ID refused by 7.5 rule 1: 422 at once, naming `sender`, with what to do. */
export class CallerIdRefused extends HttpError {
  constructor(type: string, msg: string) {
    super(422, 'CALLER_ID_REFUSED', msg, [{ loc: ['body', 'sender'], msg, type }]);
  }
}

/**
 * The REST request (already checked against the document: types, bounds, E.164 patterns) as a
 * message to store: the language tag in canonical case (422 naming `language` when it is not one
 * of the 45), the defaults, and the caller ID of 2.6 (CallerIdRefused).
 */
export function restMessage(
  account: AccountState,
  body: SendVoiceRequest,
  policy: CallerIdPolicy,
): NewVoiceMessage {
  const language = canonicalLanguage(body.language ?? DEFAULT_LANGUAGE);
  if (!language) {
    throw ValidationError.field(
      ['body', 'language'],
      'unsupported_language',
      `"${body.language}" is not a supported language tag (one of the 45 tags of the language table, case-insensitive, e.g. en-GB, sv, pt-BR)`,
    );
  }
  const caller = resolveCallerId(account, body.sender, body.to, policy);
  if (!caller.ok) throw new CallerIdRefused(caller.type, caller.msg);
  return {
    accountId: account.id,
    source: 'rest',
    recipient: body.to,
    callerId: caller.callerId,
    text: body.text,
    markup: null,
    language,
    gender: body.gender ?? 'male',
    instructions: body.instructions ?? null,
    machineDetection: body.machine_detection ?? false,
    playCount: body.play_count ?? DEFAULT_PLAY_COUNT,
    clientReference: body.client_reference ?? null,
  };
}
