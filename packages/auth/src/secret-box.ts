import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { envField } from '@msg/config';

/**
 * Secrets a service must read back (RBM service-account keys, webhook signing secrets) are kept
 * encrypted at rest with AES-256-GCM under a key from the environment: a copy of the database
 * alone reveals none of them, and a tampered value fails to open instead of being used.
 */
export interface SecretBox {
  /** `v1.<iv>.<tag>.<ciphertext>`, base64url parts; a new random IV every time. */
  seal(plaintext: string): string;
  /** The plaintext; throws when the value was not sealed with this key or was altered. */
  open(sealed: string): string;
}

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;

/**
 * Reads a key given as 64 hex characters or base64 of 32 bytes (e.g. `openssl rand -base64 32`).
 * Throws a message naming the rule, for the configuration error.
 */
export function parseSecretBoxKey(raw: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== KEY_BYTES) {
    throw new Error('expected 32 bytes as 64 hex characters or base64');
  }
  return key;
}

/**
 * The setting of a service's secret box key (e.g. RCS_CREDENTIALS_KEY, CALLBACK_SECRETS_KEY):
 * 32 bytes, hex or base64, checked at start-up, kept as text (the configuration is frozen, a
 * Buffer cannot be) and read into a key with parseSecretBoxKey by the service. Never echoed.
 */
export const secretBoxKeySetting = () =>
  envField('expected 32 bytes as 64 hex characters or base64', (raw) => {
    try {
      parseSecretBoxKey(raw);
      return raw;
    } catch {
      return undefined;
    }
  }).meta({ secret: true });

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new RangeError('secret box key must be 32 bytes');
  return {
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), body]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, iv, tag, body, ...rest] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined || rest.length > 0) {
        throw new Error('not a sealed secret');
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}
