import type { AccountState } from '@msg/contracts';
import { isStrictE164 } from '@msg/phone';

/** What the caller-ID rules need of the service (its default and provisioned numbers). */
export interface CallerIdPolicy {
  /** VOICE_DEFAULT_CALLER_ID: needs no registration and counts as provisioned. */
  serviceDefault: string;
  /** VOICE_PROVISIONED_NUMBERS: the client caller IDs Swedish destinations accept. */
  provisioned: readonly string[];
}

export type CallerIdRefusal =
  | 'caller_id_alphanumeric'
  | 'caller_id_unregistered'
  | 'caller_id_not_provisioned';

export type CallerIdDecision =
  | { ok: true; callerId: string }
  | { ok: false; type: CallerIdRefusal; msg: string };

const SWEDEN = '+46';

/**
 * Spec 2.6's caller ID: the request's sender, else the account's default voice caller ID, else
 * the service default (first available wins). A client caller ID must be registered for the
 * account (admin `voiceCallerIds`); alphanumeric ids cannot call; a Swedish destination needs a
 * caller ID provisioned through the service. The messages tell the client what to do (7.5 rule 1).
 */
export function resolveCallerId(
  account: AccountState,
  requested: string | null | undefined,
  to: string,
  policy: CallerIdPolicy,
): CallerIdDecision {
  const callerId = requested || account.voiceDefaultSender || policy.serviceDefault;
  if (callerId === policy.serviceDefault) return { ok: true, callerId };
  if (!isStrictE164(callerId)) {
    return {
      ok: false,
      type: 'caller_id_alphanumeric',
      msg: `caller ID "${callerId}" is not a phone number: alphanumeric sender IDs cannot be used for voice calls; use a registered E.164 number or omit sender`,
    };
  }
  if (!(account.voiceCallerIds ?? []).includes(callerId)) {
    return {
      ok: false,
      type: 'caller_id_unregistered',
      msg: `caller ID ${callerId} is not registered for this account: ask your operator to register it as a voice caller ID before use, or omit sender to call from the service's default caller ID`,
    };
  }
  if (to.startsWith(SWEDEN) && !policy.provisioned.includes(callerId)) {
    return {
      ok: false,
      type: 'caller_id_not_provisioned',
      msg: `calls to Swedish numbers need a caller ID provisioned through the service; ${callerId} is not: ask your operator for a provisioned number, or omit sender to call from the service's default caller ID`,
    };
  }
  return { ok: true, callerId };
}
