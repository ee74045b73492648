import { describe, expect, it } from 'vitest';
import { ipAllowed, isIpRule } from './ip-allow-list.js';

const allows = (ipAllowList: string[], ip: string | undefined) => ipAllowed({ ipAllowList }, ip);

describe('ipAllowed', () => {
  it('when the list is empty, then any address (even none) is allowed', () => {
    expect(allows([], '203.0.113.9')).toBe(true);
    expect(allows([], undefined)).toBe(true);
  });

  it('when the list holds IPv4 addresses and CIDRs, then only matching addresses pass', () => {
    const list = ['198.51.100.7', '10.0.0.0/8'];

    expect(allows(list, '198.51.100.7')).toBe(true);
    expect(allows(list, '198.51.100.8')).toBe(false);
    expect(allows(list, '10.255.1.2')).toBe(true);
    expect(allows(list, '11.0.0.1')).toBe(false);
  });

  it('when the list holds IPv6 addresses and CIDRs, then only matching addresses pass', () => {
    const list = ['2001:db8::/32', '::1'];

    expect(allows(list, '2001:db8:abcd::42')).toBe(true);
    expect(allows(list, '2001:db9::1')).toBe(false);
    expect(allows(list, '::1')).toBe(true);
    expect(allows(list, 'fe80::1')).toBe(false);
  });

  it('when the caller address carries a zone id, then the zone is ignored', () => {
    expect(allows(['fe80::/10'], 'fe80::1%eth0')).toBe(true);
  });

  it('when the caller is an IPv4-mapped IPv6 address, then IPv4 rules apply to it', () => {
    expect(allows(['10.0.0.0/8'], '::ffff:10.1.2.3')).toBe(true);
    expect(allows(['192.0.2.1'], '::FFFF:192.0.2.1')).toBe(true);
    expect(allows(['10.0.0.0/8'], '::ffff:11.1.2.3')).toBe(false);
    expect(allows(['10.0.0.0/8'], '::ffff:a01:203')).toBe(true);
  });

  it('when a rule is written as IPv4-mapped IPv6, then it matches the plain IPv4 caller', () => {
    expect(allows(['::ffff:10.0.0.0/104'], '10.9.9.9')).toBe(true);
    expect(allows(['::ffff:192.0.2.1'], '192.0.2.1')).toBe(true);
    expect(allows(['::ffff:10.0.0.0/104'], '11.0.0.1')).toBe(false);
  });

  it('when every entry is malformed, then nothing is allowed (fail closed, not "empty means any")', () => {
    const list = ['not-an-ip', '10.0.0.0/33', '10.0.0.0/x', '10.0.0.0/8/8', '2001:db8::/129', ''];

    expect(allows(list, '10.0.0.1')).toBe(false);
    expect(allows(list, '2001:db8::1')).toBe(false);
  });

  it('when the caller address is missing or unparseable, then it is refused', () => {
    expect(allows(['10.0.0.0/8'], undefined)).toBe(false);
    expect(allows(['10.0.0.0/8'], 'garbage')).toBe(false);
  });
});

describe('isIpRule', () => {
  it.each(['10.0.0.0/8', '127.0.0.1', '::1', '2001:db8::/32', '192.168.1.1/32'])(
    'when the entry is %s, then it is a valid rule',
    (entry) => expect(isIpRule(entry)).toBe(true),
  );
  it.each(['10.0.0.0/33', 'example.com', '10.0.0.0/8/1', '::1/129', '', '1.2.3.4/x'])(
    'when the entry is "%s", then it is refused',
    (entry) => expect(isIpRule(entry)).toBe(false),
  );
});
