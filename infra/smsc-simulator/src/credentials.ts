import type { SmscCredential } from './smsc-types.js';

export class CredentialSyntaxError extends Error {
  override name = 'CredentialSyntaxError';
}

/** Parses `system_id:password,...`; the password is everything after the first colon. */
export function parseCredentials(text: string): SmscCredential[] {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (entries.length === 0)
    throw new CredentialSyntaxError('expected at least one system_id:password');
  return entries.map((entry, index) => {
    const colon = entry.indexOf(':');
    const systemId = entry.slice(0, colon);
    // SMPP 3.4 §5.2.1/5.2.2: system_id at most 15 octets, password at most 8.
    if (colon < 1 || systemId.length > 15 || entry.length - colon - 1 > 8) {
      throw new CredentialSyntaxError(
        `entry ${index + 1}: expected system_id:password (system_id 1-15 characters, password up to 8)`,
      );
    }
    return { systemId, password: entry.slice(colon + 1) };
  });
}
