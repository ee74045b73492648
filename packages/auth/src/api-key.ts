import { randomBytes } from 'node:crypto';

/**
 * A recognisable prefix lets secret scanners (and humans reading a leaked config) spot our keys.
 * It carries no meaning when verifying.
 */
export const API_KEY_PREFIX = 'msgk_';

/** A new API key: 256 random bits, base64url. Shown to its owner once; only its hash is stored. */
export function generateApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}
