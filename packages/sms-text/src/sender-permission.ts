import { type SenderIdProblem, type SenderIdType, validateSenderId } from './sender-id.js';

/**
 * Whether an account may send as a sender id: the one rule every SMS path applies (single SMS,
 * batch, the RCS SMS fallback, the SMPP server to come), so that alphanumeric sender spoofing —
 * how SMS phishing of bank customers works — cannot pass one path that another refuses.
 *
 * 1. The sender id must have one of the three forms (validateSenderId, spec 2.2).
 * 2. A numeric sender (international E.164 or shortcode) must be registered to the account: a
 *    number is something an operator assigns, and a recipient calls or texts it back.
 * 3. An alphanumeric sender registered to the account is allowed (compared case-insensitively).
 * 4. An account that registered alphanumeric sender ids is bound to them: any other is refused.
 * 5. An account without any is free to choose, except a protected name: one on the operator's
 *    list (banks, authorities), or one that looks like it (`lookalikeKey`).
 *
 * So a protected name is used only by an account the operator registered it to, and an account
 * that registered `ACME` cannot send as `BANKID` whatever the protected list holds.
 */

export type SenderRefusal = SenderIdProblem | 'not_registered' | 'protected';

export type SenderPermission =
  | { ok: true; type: SenderIdType }
  | { ok: false; reason: SenderRefusal; message: string };

/** The operator's protected names, each kept by its look-alike key (see `protectedNames`). */
export interface ProtectedNames {
  /** Whether `senderId` is one of the names or looks like one. */
  covers(senderId: string): boolean;
  readonly size: number;
}

/** What decides besides the sender: the account's list and the operator's. */
export interface SenderRules {
  /** The account's registered sender ids (AccountState.senderIds). */
  registered: readonly string[];
  protectedNames: ProtectedNames;
}

export interface SenderRequest extends SenderRules {
  /** The sender the request asks for (`from`, `sender_id`, `sms_fallback.sender`, ...). */
  sender: string;
}

// Characters a reader's eye passes over or takes for another: separators are dropped, and
// digits and letters that look alike map to one letter (B4NK 1D, BANK-ID, Bank.ID, bankid).
const SEPARATORS = /[ ._&-]/g;
const LOOKALIKES: Record<string, string> = {
  '0': 'o',
  ø: 'o',
  ö: 'o',
  '1': 'i',
  l: 'i',
  '2': 'z',
  '3': 'e',
  '4': 'a',
  å: 'a',
  ä: 'a',
  '5': 's',
  '6': 'g',
  '7': 't',
  '8': 'b',
  '9': 'g',
  æ: 'ae',
};

/**
 * The key two alphanumeric sender ids share when a reader could take one for the other: lower
 * case, without space . _ & -, with 0/ø/ö → o, 1/l → i, 2 → z, 3 → e, 4/å/ä → a, 5 → s, 6/9 → g,
 * 7 → t, 8 → b, æ → ae. Cheap on purpose (one pass over at most 11 characters of a fixed alphabet);
 * it does not catch every trick (`rn` for `m`), only the common ones.
 */
export function lookalikeKey(senderId: string): string {
  let key = '';
  for (const char of senderId.toLowerCase().replace(SEPARATORS, ''))
    key += LOOKALIKES[char] ?? char;
  return key;
}

/** The protected-name list of the operator (admin `protected-senders`), ready for lookups. */
export function protectedNames(names: Iterable<string>): ProtectedNames {
  const keys = new Set<string>();
  for (const name of names) keys.add(lookalikeKey(name));
  return { covers: (senderId) => keys.has(lookalikeKey(senderId)), size: keys.size };
}

/** No protected names: what a service uses before the operator has kept any. */
export const NO_PROTECTED_NAMES: ProtectedNames = protectedNames([]);

const sameText = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The one call of every SMS path: may the account send as `sender`? */
export function checkSenderPermission({
  sender,
  registered,
  protectedNames: names,
}: SenderRequest): SenderPermission {
  const form = validateSenderId(sender);
  if (!form.ok) return form;
  if (form.type !== 'alphanumeric') {
    return registered.includes(sender)
      ? form
      : refuse(
          'not_registered',
          `${form.type === 'shortcode' ? 'a shortcode' : 'a phone number'} may be the sender only when it is registered to the account; ask your operator to register it`,
        );
  }
  if (registered.some((id) => sameText(id, sender))) return form;
  if (registered.some(isAlphanumeric)) {
    return refuse(
      'not_registered',
      "is not one of the account's registered alphanumeric sender ids (compared without regard to case)",
    );
  }
  if (names.covers(sender)) {
    return refuse(
      'protected',
      'is a protected name, or looks like one (case, spaces and look-alike characters aside); only an account it is registered to may use it',
    );
  }
  return form;
}

function isAlphanumeric(senderId: string): boolean {
  const form = validateSenderId(senderId);
  return form.ok && form.type === 'alphanumeric';
}

function refuse(reason: SenderRefusal, message: string): SenderPermission {
  return { ok: false, reason, message };
}
