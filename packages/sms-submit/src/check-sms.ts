import type { SmsEncoding } from '@msg/contracts';
import type { ErrorDetail } from '@msg/http';
import { type NormalizeOptions, normalizeMsisdn } from '@msg/phone';
import {
  checkLength,
  checkSenderPermission,
  type LengthCheck,
  MAX_PARTS,
  type SenderRules,
} from '@msg/sms-text';

/** Where an interface takes each part of an SMS (`details[].loc`), e.g. `['body', 'message']`. */
export interface SmsFields {
  to: string[];
  /** Where the interface lets the customer choose the sender (checked with `senders`). */
  from?: string[];
  text: string[];
}

/** A number rule of an interface: E.164 with +, or why not (`type` and `msg` of the detail). */
export type NumberRule = (
  input: string,
) => { ok: true; e164: string } | { ok: false; type: string; msg: string };

/** normalizeMsisdn of @msg/phone as a number rule (national forms read in `defaultCountry`). */
export function msisdnRule(options: NormalizeOptions = {}): NumberRule {
  return (input) => {
    const number = normalizeMsisdn(input, options);
    return number.ok
      ? { ok: true, e164: number.e164 }
      : { ok: false, type: number.reason, msg: number.message };
  };
}

export interface SmsInput {
  /** Recipients as the interface took them; one message each. */
  to: readonly string[];
  /** The sender the customer chose; absent where the platform chooses it (a pool number). */
  from?: string;
  text: string;
}

export interface SmsRules {
  fields: SmsFields;
  /** The interface's number rule (the sms API reads national Swedish forms, batch only E.164). */
  number: NumberRule;
  /** Who may send as what: the account's registered sender ids and the protected names. */
  senders?: SenderRules;
}

/** An SMS that passed every rule: the same text to each recipient. */
export interface CheckedSms {
  /** E.164 with +, in the order given. */
  to: string[];
  from?: string;
  text: string;
  encoding: SmsEncoding;
  parts: number;
}

export type SmsCheck = { ok: true; sms: CheckedSms } | { ok: false; broken: ErrorDetail[] };

/** The rule every SMS path shares on its text (not empty, at most MAX_PARTS parts), broken. */
function brokenTextRule(length: Exclude<LengthCheck, { ok: true }>, loc: string[]): ErrorDetail {
  const msg =
    length.reason === 'empty'
      ? 'must not be empty'
      : `at most ${MAX_PARTS} parts: this text needs ${length.parts} (1530 GSM-7 or 670 UCS-2 characters fit)`;
  return { loc, type: length.reason, msg };
}

/**
 * The rules of an SMS that JSON Schema cannot express, the same on every path: each recipient by
 * the interface's number rule, the sender's form and whether the account may use it, the text's
 * parts in its encoding. Every broken rule is reported at once, each naming its field and rule;
 * with several recipients a number's message says which ("recipient 2 of 3: ...").
 */
export function checkSms(input: SmsInput, rules: SmsRules): SmsCheck {
  const broken: ErrorDetail[] = [];
  const to: string[] = [];
  for (const [i, entry] of input.to.entries()) {
    const number = rules.number(entry);
    if (number.ok) {
      to.push(number.e164);
      continue;
    }
    const which = input.to.length > 1 ? `recipient ${i + 1} of ${input.to.length}: ` : '';
    broken.push({ loc: rules.fields.to, type: number.type, msg: `${which}${number.msg}` });
  }
  if (input.from !== undefined && rules.senders) {
    const from = checkSenderPermission({ sender: input.from, ...rules.senders });
    if (!from.ok) {
      broken.push({ loc: rules.fields.from ?? ['from'], type: from.reason, msg: from.message });
    }
  }
  const length = checkLength(input.text);
  if (!length.ok) broken.push(brokenTextRule(length, rules.fields.text));
  if (broken.length > 0 || !length.ok) return { ok: false, broken };
  return {
    ok: true,
    sms: {
      to,
      ...(input.from !== undefined && { from: input.from }),
      text: input.text,
      encoding: length.encoding,
      parts: length.parts,
    },
  };
}
