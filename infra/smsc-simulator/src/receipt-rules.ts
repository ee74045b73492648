/**
 * Which delivery outcome a destination gets: an ordered list of `prefix=outcome` rules, first
 * match wins, `*` matches every number. Prefixes and numbers are compared without a leading '+',
 * because clients send international numbers with TON 1 and no plus sign.
 */

/** Final states of SMPP 3.4 §5.2.28 as written in receipt texts, plus NORECEIPT (send none). */
export const RECEIPT_OUTCOMES = [
  'DELIVRD',
  'EXPIRED',
  'DELETED',
  'UNDELIV',
  'UNKNOWN',
  'REJECTD',
  'NORECEIPT',
] as const;
export type ReceiptOutcome = (typeof RECEIPT_OUTCOMES)[number];

export interface ReceiptRule {
  /** Number prefix ('+4670000', '4670000') or '*' for any number. */
  prefix: string;
  outcome: ReceiptOutcome;
}

export const DEFAULT_RULES: readonly ReceiptRule[] = [{ prefix: '*', outcome: 'DELIVRD' }];

function isOutcome(value: string): value is ReceiptOutcome {
  return RECEIPT_OUTCOMES.some((outcome) => outcome === value);
}

export class RuleSyntaxError extends Error {
  override name = 'RuleSyntaxError';
}

/** Parses `+4670000=UNDELIV,*=DELIVRD`; throws RuleSyntaxError naming the bad entry. */
export function parseRules(text: string): ReceiptRule[] {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  return entries.map((entry) => {
    const match = /^(\*|\+?\d+)=([A-Z]+)$/.exec(entry);
    const outcome = match?.[2] ?? '';
    if (!match?.[1] || !isOutcome(outcome)) {
      throw new RuleSyntaxError(
        `rule "${entry}": expected prefix=outcome with prefix * or digits and outcome one of ${RECEIPT_OUTCOMES.join(', ')}`,
      );
    }
    return { prefix: match[1], outcome };
  });
}

/** Checks rules given as objects (the control API takes either form). */
export function checkRules(rules: readonly ReceiptRule[]): ReceiptRule[] {
  return parseRules(rules.map((rule) => `${rule.prefix}=${rule.outcome}`).join(','));
}

const withoutPlus = (value: string) => value.replace(/^\+/, '');

/** The outcome for a destination; DELIVRD when no rule matches. */
export function outcomeFor(rules: readonly ReceiptRule[], destination: string): ReceiptOutcome {
  const number = withoutPlus(destination);
  const rule = rules.find(
    (candidate) => candidate.prefix === '*' || number.startsWith(withoutPlus(candidate.prefix)),
  );
  return rule?.outcome ?? 'DELIVRD';
}
