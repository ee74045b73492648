import { GSM7_BASIC, GSM7_ESCAPE, GSM7_EXTENSION } from './gsm7-alphabet.js';

/** Thrown when a text meant for GSM-7 holds a character outside the GSM 03.38 alphabet. */
export class NotGsm7Error extends Error {
  override name = 'NotGsm7Error';
  constructor(
    /** The first character that is not in the alphabet. */
    readonly character: string,
    /** Its UTF-16 index in the text. */
    readonly index: number,
  ) {
    super(
      `character U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')} at index ${index} is not in the GSM 03.38 alphabet`,
    );
  }
}

const BASIC_BY_SEPTET = new Map([...GSM7_BASIC].map(([char, septet]) => [septet, char]));
const EXTENSION_BY_SEPTET = new Map([...GSM7_EXTENSION].map(([char, septet]) => [septet, char]));

/**
 * GSM 03.38 text as SMPP carries it with data_coding 0: unpacked, one septet per octet (the SMSC
 * packs it for the air interface). An extension character takes two octets, ESC then its code.
 */
export function encodeGsm7(text: string): Buffer {
  const septets: number[] = [];
  let index = 0;
  for (const char of text) {
    const basic = GSM7_BASIC.get(char);
    if (basic !== undefined) {
      septets.push(basic);
    } else {
      const extension = GSM7_EXTENSION.get(char);
      if (extension === undefined) throw new NotGsm7Error(char, index);
      septets.push(GSM7_ESCAPE, extension);
    }
    index += char.length;
  }
  return Buffer.from(septets);
}

/**
 * Unpacked GSM-7 octets back to text. Lenient, because inbound messages come from many SMS
 * centres: an escape followed by a code the extension table lacks shows that code's basic
 * character (what 3GPP TS 23.038 §6.2.1.1 asks of a receiver), a dangling escape is dropped, and
 * an octet above 0x7F (not a septet) becomes U+FFFD.
 */
export function decodeGsm7(octets: Uint8Array): string {
  let text = '';
  for (let i = 0; i < octets.length; i++) {
    const octet = octets[i] ?? 0;
    if (octet === GSM7_ESCAPE) {
      const code = octets[i + 1];
      if (code === undefined) break;
      i++;
      text += EXTENSION_BY_SEPTET.get(code) ?? BASIC_BY_SEPTET.get(code) ?? ' ';
      continue;
    }
    text += BASIC_BY_SEPTET.get(octet) ?? '\ufffd';
  }
  return text;
}
