import { detectEncoding, type SmsEncoding } from './encoding.js';
import { gsm7Septets } from './gsm7-alphabet.js';

/**
 * Units per SMS part. A single SMS carries 140 octets: 160 septets or 70 UTF-16 code units.
 * A part of a concatenated message gives 6 octets to the user data header, leaving 153 septets
 * (1072 bits / 7) or 67 code units.
 */
export const SEGMENT_LIMITS: Readonly<Record<SmsEncoding, { single: number; multi: number }>> = {
  'GSM-7': { single: 160, multi: 153 },
  'UCS-2': { single: 70, multi: 67 },
};

/** Most parts one message may take (spec 8.1, 8.2). */
export const MAX_PARTS = 10;

export interface SegmentCount {
  encoding: SmsEncoding;
  /** Septets for GSM-7 (extension characters count 2), UTF-16 code units for UCS-2. */
  units: number;
  parts: number;
  /** Units one part holds: the single-SMS limit for 0 or 1 part, the concatenated limit otherwise. */
  perPart: number;
}

/** One part as a range of string indices; text.slice(start, end) is its text. */
export interface PartRange {
  start: number;
  end: number;
  units: number;
}

export interface PartPlan {
  encoding: SmsEncoding;
  units: number;
  parts: PartRange[];
}

/**
 * Where the parts of a message begin and end. Characters are laid out whole: an ESC + extension
 * pair (2 septets) or a surrogate pair (2 code units) that does not fit moves to the next part,
 * because a receiver cannot join a character split across parts. That is why the count is not
 * simply ceil(units / 153): 152 'a', then '€', then 152 'a' is 306 septets but needs 3 parts.
 * splitForSmpp slices by these ranges, so count and split cannot disagree.
 *
 * An empty text has no parts: counting is a measurement, and whether an empty message may be
 * sent is for checkLength (which refuses it) and the interfaces' own bounds to decide.
 */
export function planParts(text: string): PartPlan {
  const encoding = detectEncoding(text);
  const width =
    encoding === 'GSM-7' ? (char: string) => gsm7Septets(char) ?? 1 : (char: string) => char.length;
  const limits = SEGMENT_LIMITS[encoding];

  let units = 0;
  for (const char of text) units += width(char);
  if (units === 0) return { encoding, units, parts: [] };
  if (units <= limits.single)
    return { encoding, units, parts: [{ start: 0, end: text.length, units }] };

  const parts: PartRange[] = [];
  let start = 0;
  let index = 0;
  let fill = 0;
  for (const char of text) {
    const size = width(char);
    if (fill + size > limits.multi) {
      parts.push({ start, end: index, units: fill });
      start = index;
      fill = 0;
    }
    fill += size;
    index += char.length;
  }
  parts.push({ start, end: index, units: fill });
  return { encoding, units, parts };
}

export function countSegments(text: string): SegmentCount {
  const { encoding, units, parts } = planParts(text);
  const limits = SEGMENT_LIMITS[encoding];
  return {
    encoding,
    units,
    parts: parts.length,
    perPart: parts.length > 1 ? limits.multi : limits.single,
  };
}

export type LengthCheck =
  | ({ ok: true } & SegmentCount)
  | { ok: false; reason: 'empty' | 'too_many_parts'; parts: number; message: string };

/**
 * Whether a text can go out as one message of at most MAX_PARTS parts. An empty text is
 * refused: no interface means to send one, and SMS centres treat it inconsistently.
 */
export function checkLength(text: string): LengthCheck {
  const count = countSegments(text);
  if (count.parts === 0) {
    return { ok: false, reason: 'empty', parts: 0, message: 'the message text is empty' };
  }
  if (count.parts > MAX_PARTS) {
    return {
      ok: false,
      reason: 'too_many_parts',
      parts: count.parts,
      message: `the message needs ${count.parts} SMS parts (${count.encoding}); at most ${MAX_PARTS} are allowed`,
    };
  }
  return { ok: true, ...count };
}
