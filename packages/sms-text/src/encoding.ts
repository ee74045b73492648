import { gsm7Septets } from './gsm7-alphabet.js';

export type SmsEncoding = 'GSM-7' | 'UCS-2';

/**
 * GSM-7 when every character is in the GSM 03.38 basic or extension table, otherwise UCS-2:
 * one character outside the alphabet turns the whole message into UCS-2.
 */
export function detectEncoding(text: string): SmsEncoding {
  for (const char of text) {
    if (gsm7Septets(char) === undefined) return 'UCS-2';
  }
  return 'GSM-7';
}
