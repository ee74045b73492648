import { decodeGsm7 } from './gsm7-codec.js';
import { decodeUcs2 } from './ucs2-codec.js';

/** esm_class bit saying short_message starts with a user data header (SMPP 3.4 §5.2.12). */
export const ESM_CLASS_UDHI = 0x40;

export interface ConcatInfo {
  reference: number;
  total: number;
  sequence: number;
}

export interface DecodedSmppPayload {
  text: string;
  /** The user data header as received, length octet included, when esm_class had UDHI. */
  udh?: Buffer;
  /** This part's place in a concatenated message, when the UDH says so (IE 0x00 or 0x08). */
  concat?: ConcatInfo;
}

/** A data_coding this platform cannot turn into text (binary, or an alphabet we do not map). */
export class UnsupportedDataCodingError extends Error {
  override name = 'UnsupportedDataCodingError';
  constructor(readonly dataCoding: number) {
    super(
      `data_coding 0x${dataCoding.toString(16).padStart(2, '0')} is not a supported text coding`,
    );
  }
}

/** The user data header is malformed: its length runs past the payload. */
export class MalformedUdhError extends Error {
  override name = 'MalformedUdhError';
}

/**
 * Text (and UDH) of an inbound short_message (deliver_sm). data_coding 0 is read as unpacked
 * GSM-7 — what SMPP SMSCs send for the default alphabet —, 1 as IA5/ASCII, 3 as Latin-1, 8 as
 * UCS-2 (UTF-16BE); anything else throws UnsupportedDataCodingError.
 */
export function decodeSmppPayload({
  dataCoding,
  payload,
  esmClass = 0,
}: {
  dataCoding: number;
  payload: Uint8Array;
  esmClass?: number;
}): DecodedSmppPayload {
  const decode = textDecoder(dataCoding);
  if ((esmClass & ESM_CLASS_UDHI) === 0) return { text: decode(payload) };

  const udhLength = payload[0];
  if (udhLength === undefined || 1 + udhLength > payload.length) {
    throw new MalformedUdhError('the user data header is longer than the payload');
  }
  const udh = Buffer.from(payload.subarray(0, 1 + udhLength));
  const concat = concatInfo(udh);
  return {
    text: decode(payload.subarray(1 + udhLength)),
    udh,
    ...(concat ? { concat } : {}),
  };
}

function textDecoder(dataCoding: number): (octets: Uint8Array) => string {
  switch (dataCoding) {
    case 0:
      return decodeGsm7;
    case 1:
      return (octets) => Buffer.from(octets).toString('ascii');
    case 3:
      return (octets) => Buffer.from(octets).toString('latin1');
    case 8:
      return decodeUcs2;
    default:
      throw new UnsupportedDataCodingError(dataCoding);
  }
}

/** Walks the information elements for a concatenation IE (8-bit 0x00 or 16-bit 0x08 reference). */
function concatInfo(udh: Buffer): ConcatInfo | undefined {
  let i = 1;
  while (i + 1 < udh.length) {
    const id = udh[i] ?? 0;
    const length = udh[i + 1] ?? 0;
    const data = udh.subarray(i + 2, i + 2 + length);
    if (data.length < length) return undefined;
    if (id === 0x00 && length === 3) {
      return { reference: data[0] ?? 0, total: data[1] ?? 0, sequence: data[2] ?? 0 };
    }
    if (id === 0x08 && length === 4) {
      return { reference: data.readUInt16BE(0), total: data[2] ?? 0, sequence: data[3] ?? 0 };
    }
    i += 2 + length;
  }
  return undefined;
}
