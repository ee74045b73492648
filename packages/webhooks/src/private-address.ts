import { isIP } from 'node:net';

/**
 * Which targets a URL may name beyond public ones: the one policy of a customer's URL when it is
 * given (isClientUrl of @msg/http, on its face) and when it is called (createTargetGuard, on the
 * addresses the connection uses).
 */
export interface TargetPolicy {
  /**
   * Accept private targets (loopback, RFC 1918, link-local and the metadata address in any
   * spelling, `localhost`, unique-local, multicast): CALLBACK_ALLOW_PRIVATE_TARGETS
   * (RCS_WEBHOOK_ALLOW_PRIVATE_TARGETS), off unless set. Development and the embedded suite only.
   */
  allowPrivateTargets: boolean;
  /**
   * Hosts (or IP literals) the operator trusts whatever they are or resolve to
   * (CALLBACK_ALLOWED_HOSTS, RCS_WEBHOOK_ALLOWED_HOSTS: internal receivers), compared
   * case-insensitively without brackets. None when absent.
   */
  allowedHosts?: readonly string[];
}

/**
 * Address ranges a callback must never reach unless an operator allows it: a callback URL is
 * chosen by a customer, and without this check it could make us call our own cluster, the cloud
 * metadata service (169.254.169.254) or anything else behind the firewall (SSRF).
 */
const IPV4_BLOCKED: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

const IPV6_BLOCKED: readonly (readonly [string, number])[] = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed by some stacks)
  ['ff00::', 8], // multicast
];

/** IPv6 prefixes that carry an IPv4 address in their last 32 bits: judged by that address. */
const IPV6_EMBEDDING_IPV4: readonly (readonly [string, number])[] = [
  ['::ffff:0:0', 96], // IPv4-mapped
  ['::', 96], // IPv4-compatible (deprecated)
  ['64:ff9b::', 96], // NAT64
];

function ipv4ToBigInt(address: string): bigint {
  return address.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

/** 128-bit value of an IPv6 address, including forms with '::' and a trailing dotted quad. */
function ipv6ToBigInt(address: string): bigint {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const v4 = ipv4ToBigInt(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
}

function inPrefix(value: bigint, bits: number, base: bigint, prefix: number): boolean {
  const shift = BigInt(bits - prefix);
  return value >> shift === base >> shift;
}

function isBlockedIpv4(address: string): boolean {
  const value = ipv4ToBigInt(address);
  return IPV4_BLOCKED.some(([base, prefix]) => inPrefix(value, 32, ipv4ToBigInt(base), prefix));
}

function isBlockedIpv6(address: string): boolean {
  const value = ipv6ToBigInt(address);
  for (const [base, prefix] of IPV6_EMBEDDING_IPV4) {
    // '::' and '::1' are themselves inside ::/96; they are judged as IPv6 below.
    if (inPrefix(value, 128, ipv6ToBigInt(base), prefix) && value > 1n) {
      const v4 = value & 0xffff_ffffn;
      return isBlockedIpv4([24n, 16n, 8n, 0n].map((s) => String((v4 >> s) & 0xffn)).join('.'));
    }
  }
  return IPV6_BLOCKED.some(([base, prefix]) => inPrefix(value, 128, ipv6ToBigInt(base), prefix));
}

/**
 * True for loopback, private, link-local, unique-local, multicast, reserved and documentation
 * addresses (IPv4 and IPv6, IPv4-mapped included). Anything that is not an IP address at all is
 * treated as not allowed: the caller resolves names first.
 */
export function isPrivateAddress(address: string): boolean {
  // Strip brackets (URL host form) and zone ids (fe80::1%eth0).
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return isBlockedIpv4(bare);
  if (family === 6) return isBlockedIpv6(bare.toLowerCase());
  return true;
}

/**
 * `[::1]` (URL form) → `::1`; names lower-cased: the one way a URL's host is compared with
 * trusted hosts, at request time (@msg/http's isClientUrl) and at delivery (createTargetGuard).
 */
export function bareHost(host: string): string {
  return host.replace(/^\[|\]$/g, '').toLowerCase();
}

/** `localhost` and its subdomains always mean this machine (RFC 6761), whatever DNS says. */
const LOCALHOST_NAME = /(^|\.)localhost\.?$/i;

/**
 * True when a URL host (WHATWG `hostname`: IPv6 in brackets, IPv4 already in dotted form whatever
 * spelling the client used — decimal, hex, octal, short) is private without asking DNS: a private
 * IP literal, or `localhost` / `*.localhost`. Other names can only be judged by what they resolve
 * to, which the callback sender does at delivery (createTargetGuard).
 */
export function isPrivateHost(hostname: string): boolean {
  const bare = bareHost(hostname);
  if (isIP(bare.replace(/%.*$/, '')) !== 0) return isPrivateAddress(bare);
  return LOCALHOST_NAME.test(bare);
}
