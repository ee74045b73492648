import { describe, expect, it } from 'vitest';
import { checksumMatches, migrationChecksum } from './checksum.js';

describe('migrationChecksum', () => {
  it('when given a script, then it is the zero-padded sha256 hex Prisma records', () => {
    expect(migrationChecksum('hello')).toBe(
      '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
    );
  });
});

describe('checksumMatches', () => {
  it('when the script is unchanged, then it matches', () => {
    expect(checksumMatches('CREATE TABLE a();\n', migrationChecksum('CREATE TABLE a();\n'))).toBe(
      true,
    );
  });

  it('when only line endings differ (git autocrlf), then it still matches both ways', () => {
    const unix = 'CREATE TABLE a();\nCREATE TABLE b();\n';
    const windows = 'CREATE TABLE a();\r\nCREATE TABLE b();\r\n';
    expect(checksumMatches(windows, migrationChecksum(unix))).toBe(true);
    expect(checksumMatches(unix, migrationChecksum(windows))).toBe(true);
  });

  it('when the script changed, then it does not match', () => {
    expect(checksumMatches('abc', migrationChecksum('abcd'))).toBe(false);
    expect(checksumMatches('abc\n', migrationChecksum('abc'))).toBe(false);
  });

  it('when the row holds an old unpadded checksum, then the same script matches', () => {
    // sha256('hello') contains the byte 0x0e, which old Prisma versions wrote as "e".
    const unpadded = migrationChecksum('hello').replace(/(..)/g, (byte) =>
      Number.parseInt(byte, 16).toString(16),
    );
    expect(unpadded.length).toBeLessThan(64);
    expect(checksumMatches('hello', unpadded)).toBe(true);
  });
});
