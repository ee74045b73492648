import { BlockList, isIP } from 'node:net';
import type { AccountState } from '@msg/contracts';
import type { RequestHandler } from 'express';
import { accountGuard, type GuardOptions } from './guards.js';

type Family = 'ipv4' | 'ipv6';

function familyOf(address: string): Family | null {
  const version = isIP(address);
  return version === 4 ? 'ipv4' : version === 6 ? 'ipv6' : null;
}

/*
 * IPv4-mapped IPv6 (`::ffff:1.2.3.4`, what a dual-stack socket reports for an IPv4 client) needs no
 * conversion here: net.BlockList matches it against IPv4 rules, and mapped rules against IPv4
 * callers, and it accepts zone ids (`fe80::1%eth0`). ip-allow-list.test.ts pins that behaviour.
 */
interface IpRule {
  address: string;
  family: Family;
  /** Absent for a single address. */
  prefix?: number;
}

/** Parses an allow-list entry: an IPv4/IPv6 address or a CIDR block. Null when malformed. */
function parseRule(entry: string): IpRule | null {
  const [address, prefixText, extra] = entry.trim().split('/');
  if (!address || extra !== undefined) return null;
  const family = familyOf(address);
  if (!family) return null;
  if (prefixText === undefined) return { address, family };
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  if (prefix > (family === 'ipv4' ? 32 : 128)) return null;
  return { address, family, prefix };
}

/** True when `entry` is a valid allow-list entry (the admin service checks entries with it). */
export function isIpRule(entry: string): boolean {
  return parseRule(entry) !== null;
}

function addEntry(list: BlockList, entry: string): void {
  const rule = parseRule(entry);
  if (!rule) return;
  if (rule.prefix === undefined) list.addAddress(rule.address, rule.family);
  else list.addSubnet(rule.address, rule.prefix, rule.family);
}

/*
 * Compiled lists, memoised per list array. Account states are replaced, never mutated, when they
 * change, so the array identity is a correct cache key and the WeakMap lets old lists be collected.
 * This is a pure memo (no I/O, no configuration), hence safe at module level.
 */
const compiled = new WeakMap<readonly string[], BlockList>();

function compile(entries: readonly string[]): BlockList {
  let list = compiled.get(entries);
  if (!list) {
    list = new BlockList();
    // An unparseable entry allows nothing; it does not turn the list into "allow everyone".
    for (const entry of entries) addEntry(list, entry);
    compiled.set(entries, list);
  }
  return list;
}

/** True when `ip` may call for this account: the list is empty, or an address or CIDR in it matches. */
export function ipAllowed(
  account: Pick<AccountState, 'ipAllowList'>,
  ip: string | undefined,
): boolean {
  if (account.ipAllowList.length === 0) return true;
  const address = ip?.trim() ?? '';
  const family = familyOf(address);
  if (!family) return false;
  return compile(account.ipAllowList).check(address, family);
}

/**
 * Refuses callers outside the account's IP allow-list. The address is `req.ip`: configure express
 * `trust proxy` for the gateway only, so X-Forwarded-For cannot be forged by clients.
 */
export function requireAllowedIp(options?: GuardOptions): RequestHandler {
  return accountGuard(
    (account, req) => (ipAllowed(account, req.ip) ? null : 'calling address not allowed'),
    options,
  );
}
