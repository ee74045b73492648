/**
 * The GSM 03.38 default alphabet (3GPP TS 23.038 §6.2.1), as septet values. Kept as tables
 * rather than a yes/no check so that the SMPP splitter can encode with the same data that
 * decides encoding and length here.
 */

/** Septet that announces a character of the extension table; it is never text by itself. */
export const GSM7_ESCAPE = 0x1b;

// Index in this string = septet value. Position 0x1B (ESC) holds a placeholder that is skipped.
// 0x09 is the capital Ç of the standard; a lowercase ç is not in the alphabet.
const BASIC_TABLE =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';

/** Characters of the basic table, mapped to their septet. */
export const GSM7_BASIC: ReadonlyMap<string, number> = new Map(
  [...BASIC_TABLE]
    .map((char, septet): [string, number] => [char, septet])
    .filter(([, septet]) => septet !== GSM7_ESCAPE),
);

/** Characters of the extension table, mapped to the septet that follows ESC. */
export const GSM7_EXTENSION: ReadonlyMap<string, number> = new Map([
  ['\f', 0x0a],
  ['^', 0x14],
  ['{', 0x28],
  ['}', 0x29],
  ['\\', 0x2f],
  ['[', 0x3c],
  ['~', 0x3d],
  [']', 0x3e],
  ['|', 0x40],
  ['€', 0x65],
]);

/** Septets a character takes in GSM-7: 1 (basic), 2 (ESC + extension) or undefined (not GSM). */
export function gsm7Septets(char: string): 1 | 2 | undefined {
  if (GSM7_BASIC.has(char)) return 1;
  if (GSM7_EXTENSION.has(char)) return 2;
  return undefined;
}
