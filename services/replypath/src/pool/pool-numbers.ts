import { type ErrorDetail, ValidationError } from '@msg/http';
import { swedishNumber } from './swedish-number.js';

/** The most numbers one range may add (a typo in `to` should not add a million). */
export const MAX_RANGE = 10_000;

export type PoolNumbersInput = { from: string; to: string } | { numbers: string[] };

function refuse(details: ErrorDetail[]): never {
  throw new ValidationError(details.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '), details);
}

/** One pool number in any of the recipient forms, as E.164; 400 naming `loc` otherwise. */
export function parsePoolNumber(raw: string, loc: string[]): string {
  const n = swedishNumber(raw);
  if (!n.ok) refuse([{ loc, type: n.type, msg: n.msg }]);
  return n.e164;
}

/**
 * The E.164 numbers an add request names: a list, or every number from `from` to `to` (both
 * included, same length, at most MAX_RANGE). Each must be a valid Swedish number.
 */
export function poolNumbersOf(input: PoolNumbersInput): string[] {
  if ('numbers' in input)
    return input.numbers.map((n, i) => parsePoolNumber(n, ['body', 'numbers', String(i)]));
  const from = parsePoolNumber(input.from, ['body', 'from']);
  const to = parsePoolNumber(input.to, ['body', 'to']);
  if (from.length !== to.length) {
    refuse([{ loc: ['body', 'to'], type: 'range', msg: 'must have as many digits as from' }]);
  }
  const first = BigInt(from.slice(1));
  const last = BigInt(to.slice(1));
  if (last < first) refuse([{ loc: ['body', 'to'], type: 'range', msg: 'must not be below from' }]);
  if (last - first + 1n > BigInt(MAX_RANGE)) {
    refuse([
      { loc: ['body', 'to'], type: 'range', msg: `a range holds at most ${MAX_RANGE} numbers` },
    ]);
  }
  const numbers: string[] = [];
  for (let n = first; n <= last; n += 1n) {
    numbers.push(parsePoolNumber(`+${n}`, ['body', 'to']));
  }
  return numbers;
}
