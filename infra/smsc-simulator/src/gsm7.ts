/**
 * GSM 03.38 (3GPP TS 23.038) default alphabet and its extension table, written out here rather
 * than taken from the `smpp` package: the simulator exists to check what clients put on the wire,
 * so its decoder must not share tables (or bugs) with the client library it is checking.
 *
 * SMPP carries GSM-7 text UNPACKED: one septet per octet, 0x1B escaping into the extension table.
 */

/** Characters of the default table, indexed by septet; 0x1B (escape) is never a character. */
const DEFAULT_TABLE = [
  '@£$¥èéùìòÇ\nØø\rÅå',
  'Δ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ',
  ' !"#¤%&\'()*+,-./',
  '0123456789:;<=>?',
  '¡ABCDEFGHIJKLMNO',
  'PQRSTUVWXYZÄÖÑÜ§',
  '¿abcdefghijklmno',
  'pqrstuvwxyzäöñüà',
].join('');

export const GSM7_ESCAPE = 0x1b;

/** Extension table: septet after 0x1B → character. Unlisted septets are not defined. */
const EXTENSION_TABLE: ReadonlyMap<number, string> = new Map([
  [0x0a, '\f'],
  [0x14, '^'],
  [0x28, '{'],
  [0x29, '}'],
  [0x2f, '\\'],
  [0x3c, '['],
  [0x3d, '~'],
  [0x3e, ']'],
  [0x40, '|'],
  [0x65, '€'],
]);

const DEFAULT_BY_CHAR: ReadonlyMap<string, number> = new Map(
  [...DEFAULT_TABLE]
    .map((char, septet): [string, number] => [char, septet])
    .filter(([, septet]) => septet !== GSM7_ESCAPE),
);
const EXTENSION_BY_CHAR: ReadonlyMap<string, number> = new Map(
  [...EXTENSION_TABLE].map(([septet, char]): [string, number] => [char, septet]),
);

/** Shown for an octet that is no septet (> 0x7F): a client bug worth seeing, not hiding. */
const INVALID = '\ufffd';

/**
 * Decodes unpacked GSM-7 (one septet per octet) into text. Characters are joined once at the end:
 * `text += char` leaves a rope of one node per character (~4.8 KB for 160 characters, measured),
 * which every recorded submit then kept.
 */
export function decodeGsm7(octets: Uint8Array): string {
  const chars: string[] = [];
  for (let i = 0; i < octets.length; i++) {
    const septet = octets[i] ?? 0;
    if (septet > 0x7f) {
      chars.push(INVALID);
    } else if (septet === GSM7_ESCAPE) {
      const next = octets[i + 1];
      if (next === undefined) break; // a lone trailing escape carries no character
      i++;
      // TS 23.038: an escape to an undefined extension code shows the default-table character.
      chars.push(
        EXTENSION_TABLE.get(next) ?? (next > 0x7f ? INVALID : (DEFAULT_TABLE[next] ?? '')),
      );
    } else {
      chars.push(DEFAULT_TABLE[septet] ?? '');
    }
  }
  return chars.join('');
}

/** Encodes text as unpacked GSM-7; undefined when a character is in neither table. */
export function encodeGsm7(text: string): Buffer | undefined {
  const septets: number[] = [];
  for (const char of text) {
    const septet = DEFAULT_BY_CHAR.get(char);
    if (septet !== undefined) {
      septets.push(septet);
      continue;
    }
    const extension = EXTENSION_BY_CHAR.get(char);
    if (extension === undefined) return undefined;
    septets.push(GSM7_ESCAPE, extension);
  }
  return Buffer.from(septets);
}

/** Like encodeGsm7, with '?' for characters GSM-7 cannot carry (receipt texts must always fit). */
export function encodeGsm7Lossy(text: string): Buffer {
  const fitting = [...text].map((char) => (encodeGsm7(char) === undefined ? '?' : char)).join('');
  return encodeGsm7(fitting) ?? Buffer.alloc(0);
}
