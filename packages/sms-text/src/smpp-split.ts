import type { SmsEncoding } from './encoding.js';
import { encodeGsm7 } from './gsm7-codec.js';
import { MAX_PARTS, planParts } from './segments.js';
import { encodeUcs2 } from './ucs2-codec.js';

/** SMPP 3.4 data_coding values this splitter produces: 0 SMSC default (GSM-7), 8 UCS-2. */
export type SmppDataCoding = 0 | 8;

export interface SmppPart {
  /** Concatenation header (`05 00 03 ref total seq`), or null for a message of one part. */
  udh: Buffer | null;
  /** The encoded text of this part, without the header. */
  payload: Buffer;
  text: string;
}

export interface SmppSplit {
  encoding: SmsEncoding;
  dataCoding: SmppDataCoding;
  parts: SmppPart[];
}

export type SmppSplitProblem = 'empty' | 'too_many_parts' | 'bad_reference';

/** Why a text cannot be turned into submit_sm payloads; `reason` is stable, the message is not. */
export class SmppSplitError extends Error {
  override name = 'SmppSplitError';
  constructor(
    readonly reason: SmppSplitProblem,
    message: string,
    readonly parts?: number,
  ) {
    super(message);
  }
}

/** Information element 0x00: concatenated short message, 8-bit reference (3GPP TS 23.040 §9.2.3.24.1). */
const IE_CONCAT_8BIT = 0x00;

/**
 * Splits a text into the payloads of the submit_sm PDUs that carry it. The layout is planParts'
 * — the same tables and the same rule that an escape or surrogate pair is never split — so the
 * number of parts always equals countSegments(text).parts, which is what the customer was told
 * and billed. `reference` (0..255) ties the parts together on the handset; the caller picks it
 * (it must differ between concurrent long messages to the same recipient).
 *
 * The UDH is returned separately rather than prepended, because the caller sets esm_class UDHI
 * (0x40) and concatenates, or sends it in another way the SMSC asks for.
 */
export function splitForSmpp(text: string, { reference }: { reference: number }): SmppSplit {
  if (!Number.isInteger(reference) || reference < 0 || reference > 0xff) {
    throw new SmppSplitError('bad_reference', `reference ${reference} is not an integer 0..255`);
  }
  const plan = planParts(text);
  const total = plan.parts.length;
  if (total === 0) throw new SmppSplitError('empty', 'the message text is empty', 0);
  if (total > MAX_PARTS) {
    throw new SmppSplitError(
      'too_many_parts',
      `the message needs ${total} SMS parts (${plan.encoding}); at most ${MAX_PARTS} are allowed`,
      total,
    );
  }
  const gsm = plan.encoding === 'GSM-7';
  const encode = gsm ? encodeGsm7 : encodeUcs2;
  return {
    encoding: plan.encoding,
    dataCoding: gsm ? 0 : 8,
    parts: plan.parts.map(({ start, end }, index) => {
      const partText = text.slice(start, end);
      return {
        udh:
          total === 1
            ? null
            : Buffer.from([0x05, IE_CONCAT_8BIT, 0x03, reference, total, index + 1]),
        payload: encode(partText),
        text: partText,
      };
    }),
  };
}
