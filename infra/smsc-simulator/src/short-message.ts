import { decodeGsm7 } from './gsm7.js';

/** Concatenation info from UDH IE 0x00 (8-bit reference) or 0x08 (16-bit reference). */
export interface Concatenation {
  ref: number;
  total: number;
  seq: number;
  refBits: 8 | 16;
}

export interface UserDataHeader {
  /** The whole UDH including its length octet, as hex. */
  hex: string;
  concat: Concatenation | null;
}

/**
 * Splits a UDH off the front of short_message (when esm_class says there is one) and reads the
 * concatenation IE. Undefined when the header claims more octets than the message has.
 */
export function splitUserDataHeader(
  shortMessage: Buffer,
): { udh: UserDataHeader; payload: Buffer } | undefined {
  const headerLength = shortMessage[0];
  if (headerLength === undefined || headerLength + 1 > shortMessage.length) return undefined;
  const header = shortMessage.subarray(1, headerLength + 1);
  let concat: Concatenation | null = null;
  for (let offset = 0; offset + 2 <= header.length; ) {
    const iei = header[offset] ?? 0;
    const length = header[offset + 1] ?? 0;
    const data = header.subarray(offset + 2, offset + 2 + length);
    if (iei === 0x00 && data.length === 3) {
      concat = { ref: data[0] ?? 0, total: data[1] ?? 0, seq: data[2] ?? 0, refBits: 8 };
    } else if (iei === 0x08 && data.length === 4) {
      concat = { ref: data.readUInt16BE(0), total: data[2] ?? 0, seq: data[3] ?? 0, refBits: 16 };
    }
    offset += 2 + length;
  }
  return {
    udh: { hex: shortMessage.subarray(0, headerLength + 1).toString('hex'), concat },
    payload: shortMessage.subarray(headerLength + 1),
  };
}

function decodeUcs2(octets: Buffer): string {
  // Big-endian on the wire; an odd trailing octet is no character and is dropped.
  const even = Buffer.from(octets.subarray(0, octets.length - (octets.length % 2)));
  return even.swap16().toString('utf16le');
}

/**
 * Text of a payload by data_coding: 0 GSM-7 unpacked, 1 IA5 (ASCII), 3 Latin-1, 8 UCS-2 BE.
 * Null for codings that carry no text the simulator can read (binary, 8-bit data, ...).
 */
export function decodeText(dataCoding: number, payload: Buffer): string | null {
  switch (dataCoding) {
    case 0x00:
      return decodeGsm7(payload);
    case 0x01:
      return payload.toString('ascii');
    case 0x03:
      return payload.toString('latin1');
    case 0x08:
      return decodeUcs2(payload);
    default:
      return null;
  }
}
