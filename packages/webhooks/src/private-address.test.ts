import { describe, expect, it } from 'vitest';
import { isPrivateAddress, isPrivateHost } from './private-address.js';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '127.10.0.1',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fd00::1',
    'fc00::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '[::1]',
    '64:ff9b::a00:1',
  ])('when the address is %s, then it is private', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '192.169.0.1',
    '2001:4860:4860::8888',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
  ])('when the address is %s, then it is public', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('when the text is not an IP address, then it is not trusted', () => {
    expect(isPrivateAddress('example.com')).toBe(true);
  });
});

describe('isPrivateHost', () => {
  it.each([
    '127.0.0.1',
    '169.254.169.254',
    '[::1]',
    '[::]',
    '[::ffff:a9fe:a9fe]',
    'localhost',
    'LOCALHOST',
    'localhost.',
    'api.localhost',
  ])('when the URL host is %s, then it is private without asking DNS', (host) => {
    expect(isPrivateHost(host)).toBe(true);
  });

  it.each([
    'example.com',
    'localhost.example.com',
    'notlocalhost',
    '8.8.8.8',
    '[2001:4860:4860::8888]',
  ])('when the URL host is %s, then only delivery can tell (a name) or it is public', (host) => {
    expect(isPrivateHost(host)).toBe(false);
  });
});
