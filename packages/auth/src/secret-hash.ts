import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt cost parameters; stored inside every hash so they can be raised without breaking old hashes. */
export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

/**
 * N=2^15, r=8 uses 32 MiB and ~100-200 ms per hash on a server core: slow enough to make offline
 * guessing expensive, cheap enough for the occasional cache miss (see credential-verifier.ts).
 */
export const DEFAULT_SCRYPT_PARAMS: Readonly<ScryptParams> = Object.freeze({
  N: 2 ** 15,
  r: 8,
  p: 1,
});

const SALT_BYTES = 16;
const KEY_BYTES = 32;

// Bounds for parameters read back from a stored hash: a corrupt or hostile value must not make one
// verification allocate gigabytes or spin for minutes.
const MIN_LOG2_N = 10;
const MAX_LOG2_N = 20;
const MAX_R = 32;
const MAX_P = 16;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function scryptAsync(
  secret: string,
  salt: Buffer,
  keyLength: number,
  params: ScryptParams,
): Promise<Buffer> {
  // Node refuses to run when 128*N*r exceeds maxmem (default 32 MiB); allow twice the need.
  const maxmem = 256 * params.N * params.r;
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, keyLength, { ...params, maxmem }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

// A control character (C0, DEL, C1) or a lone surrogate (\p{Cs} under /u matches only unpaired ones).
const NOT_A_SECRET_CHARACTER = /[\p{Cc}\p{Cs}]/u;

/**
 * True when `secret` can be a password or API key: no control characters and well-formed UTF-16.
 * scrypt keys PBKDF2-HMAC with the secret, and HMAC pads a short key with zero bytes, so
 * `password` and `password\0` hash alike; a lone surrogate encodes to the same UTF-8 as U+FFFD.
 * Refusing both makes distinct accepted secrets distinct byte strings, so only the exact secret
 * verifies.
 */
export function isAcceptableSecret(secret: string): boolean {
  return !NOT_A_SECRET_CHARACTER.test(secret);
}

/** Hashes a password or API key as `scrypt$N$r$p$saltB64$hashB64`. */
export async function hashSecret(
  secret: string,
  params: ScryptParams = DEFAULT_SCRYPT_PARAMS,
): Promise<string> {
  if (!validParams(params)) throw new RangeError('scrypt parameters out of bounds');
  if (!isAcceptableSecret(secret))
    throw new RangeError('a secret must not contain control characters or lone surrogates');
  const salt = randomBytes(SALT_BYTES);
  const hash = await scryptAsync(secret, salt, KEY_BYTES, params);
  return [
    'scrypt',
    params.N,
    params.r,
    params.p,
    salt.toString('base64'),
    hash.toString('base64'),
  ].join('$');
}

interface ParsedHash {
  params: ScryptParams;
  salt: Buffer;
  hash: Buffer;
}

function validParams({ N, r, p }: ScryptParams): boolean {
  const log2N = Math.log2(N);
  return (
    Number.isInteger(log2N) &&
    log2N >= MIN_LOG2_N &&
    log2N <= MAX_LOG2_N &&
    Number.isInteger(r) &&
    r >= 1 &&
    r <= MAX_R &&
    Number.isInteger(p) &&
    p >= 1 &&
    p <= MAX_P
  );
}

function parseStoredHash(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6) return null;
  const [scheme, n, r, p, salt, hash] = parts;
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return null;
  if (![n, r, p].every((part) => /^\d{1,8}$/.test(part))) return null;
  if (!BASE64.test(salt) || !BASE64.test(hash)) return null;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (!validParams(params)) return null;
  const saltBytes = Buffer.from(salt, 'base64');
  const hashBytes = Buffer.from(hash, 'base64');
  if (saltBytes.length < 8 || hashBytes.length < 16 || hashBytes.length > 128) return null;
  return { params, salt: saltBytes, hash: hashBytes };
}

/**
 * True when `secret` matches `stored`; a malformed stored hash or an unacceptable secret (see
 * isAcceptableSecret) is simply a mismatch.
 */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const parsed = parseStoredHash(stored);
  if (!parsed || !isAcceptableSecret(secret)) return false;
  const candidate = await scryptAsync(secret, parsed.salt, parsed.hash.length, parsed.params);
  return timingSafeEqual(candidate, parsed.hash);
}
