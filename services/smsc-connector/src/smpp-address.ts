/** How an address is numbered on the wire: type of number and numbering plan (SMPP 3.4 §5.2.5-6). */
export interface SmppAddress {
  ton: number;
  npi: number;
  addr: string;
}

/**
 * Chooses TON/NPI from the form of an address the platform already validated:
 * `+E.164` → international (TON 1, NPI 1 ISDN), digits without the plus; anything with a
 * letter → alphanumeric (TON 5, NPI 0); remaining digit strings are shortcodes / national
 * service numbers → network specific (TON 3, NPI 0).
 */
export function toSmppAddress(address: string): SmppAddress {
  if (/^\+\d+$/.test(address)) return { ton: 1, npi: 1, addr: address.slice(1) };
  if (/^\d+$/.test(address)) return { ton: 3, npi: 0, addr: address };
  return { ton: 5, npi: 0, addr: address };
}

/** The platform's form of an address from a deliver_sm: international numbers get their '+'. */
export function fromSmppAddress(ton: number, addr: string): string {
  return ton === 1 && !addr.startsWith('+') ? `+${addr}` : addr;
}
