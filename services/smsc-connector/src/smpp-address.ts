import { decodeGsm7, encodeGsm7, NotGsm7Error } from '@msg/sms-text';

/** TON 5 (SMPP 3.4 §5.2.5): the address is text, not a number. */
const TON_ALPHANUMERIC = 5;

/** How an address goes on the wire: type of number, numbering plan and the octets of the field. */
export interface SmppAddress {
  ton: number;
  npi: number;
  /**
   * The C-octet string's octets (without its NUL). A Buffer, because the `smpp` package writes a
   * string field as ASCII, which for å ä ö æ ø means Latin-1 bytes no SMSC reads as GSM.
   */
  addr: Buffer;
}

/** An address that cannot be put in an SMPP address field as its TON requires. */
export class SmppAddressError extends Error {
  override name = 'SmppAddressError';
}

/**
 * Chooses TON/NPI from the form of an address the platform already validated:
 * `+E.164` → international (TON 1, NPI 1 ISDN), ASCII digits without the plus; a digit string →
 * shortcode / national service number (TON 3, NPI 0), ASCII digits; anything else →
 * alphanumeric (TON 5, NPI 0) in the GSM 7-bit default alphabet, one septet per octet, which is
 * what SMS centres put into the TP-Originating-Address of an alphanumeric sender.
 */
export function toSmppAddress(address: string): SmppAddress {
  if (/^\+\d+$/.test(address)) return { ton: 1, npi: 1, addr: Buffer.from(address.slice(1)) };
  if (/^\d+$/.test(address)) return { ton: 3, npi: 0, addr: Buffer.from(address) };
  return { ton: TON_ALPHANUMERIC, npi: 0, addr: encodeAlphanumeric(address) };
}

function encodeAlphanumeric(address: string): Buffer {
  let octets: Buffer;
  try {
    octets = encodeGsm7(address);
  } catch (error) {
    if (!(error instanceof NotGsm7Error)) throw error;
    throw new SmppAddressError(`alphanumeric sender not in the GSM alphabet: ${error.message}`);
  }
  // '@' is septet 0x00, the terminator of a C-octet string: the SMSC would see a shorter sender.
  if (octets.includes(0)) throw new SmppAddressError('alphanumeric sender contains @ (septet 0)');
  return octets;
}

/**
 * The platform's form of an address from a deliver_sm, read from its octets: TON 5 as GSM 7-bit
 * unpacked (octets above 0x7F cannot be septets, so such an address is read as Latin-1, which
 * some SMSCs send); any other TON as Latin-1 digits, international numbers with their '+'.
 */
export function fromSmppAddress({ ton, octets }: { ton: number; octets: Uint8Array }): string {
  const raw = Buffer.from(octets);
  if (ton === TON_ALPHANUMERIC && raw.every((octet) => octet < 0x80)) return decodeGsm7(raw);
  const addr = raw.toString('latin1');
  return ton === 1 && !addr.startsWith('+') ? `+${addr}` : addr;
}
