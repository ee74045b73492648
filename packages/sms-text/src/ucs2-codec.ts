/**
 * UCS-2 as SMPP carries it with data_coding 8: UTF-16 big-endian code units. Characters outside
 * the Basic Multilingual Plane (emoji) go as their surrogate pair, which handsets display as
 * UTF-16; the splitter never puts the two halves in different parts.
 */
export function encodeUcs2(text: string): Buffer {
  // Node's 'utf16le' writes code units as they are (lone surrogates included); swap to BE.
  return Buffer.from(text, 'utf16le').swap16();
}

/** UTF-16BE octets back to text; a trailing odd octet (a truncated unit) is dropped. */
export function decodeUcs2(octets: Uint8Array): string {
  const even = octets.length - (octets.length % 2);
  return Buffer.from(octets.subarray(0, even)).swap16().toString('utf16le');
}
