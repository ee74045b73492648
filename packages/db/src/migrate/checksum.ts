import { createHash } from 'node:crypto';

/** Prisma's migration checksum: sha256 of the migration.sql text, as 64 lower-case hex digits. */
export function migrationChecksum(script: string): string {
  return createHash('sha256').update(script, 'utf8').digest('hex');
}

/**
 * Whether `script` is the one recorded with `checksum`, by Prisma's own rule: line endings do not
 * count (git may turn LF into CRLF on checkout), and very old Prisma versions recorded hex digits
 * without zero padding, which still has to match.
 */
export function checksumMatches(script: string, checksum: string): boolean {
  const variants = [script, script.replaceAll('\r\n', '\n'), script.replaceAll('\n', '\r\n')];
  return variants.some((variant) => {
    const digest = createHash('sha256').update(variant, 'utf8').digest();
    const rendered =
      checksum.length === 64
        ? digest.toString('hex')
        : [...digest].map((byte) => byte.toString(16)).join('');
    return rendered === checksum;
  });
}
