import { lookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { bareHost, isPrivateAddress, type TargetPolicy } from './private-address.js';

export const TARGET_NOT_ALLOWED = 'target address not allowed';
/** Error code of a connection the guard refused; got copies it onto its RequestError. */
export const TARGET_NOT_ALLOWED_CODE = 'ERR_WEBHOOK_TARGET_NOT_ALLOWED';

function targetNotAllowed(): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(TARGET_NOT_ALLOWED);
  error.code = TARGET_NOT_ALLOWED_CODE;
  return error;
}

export function createTargetGuard(policy: TargetPolicy) {
  const trusted = new Set((policy.allowedHosts ?? []).map(bareHost));
  const unrestricted = (host: string) => policy.allowPrivateTargets || trusted.has(bareHost(host));

  /**
   * The check for IP literals in the URL: Node connects to those without any lookup, so the
   * lookup below never sees them.
   */
  function literalAllowed(urlHost: string): boolean {
    const host = bareHost(urlHost);
    if (unrestricted(host) || isIP(host) === 0) return true;
    return !isPrivateAddress(host);
  }

  /**
   * The lookup the socket connects with. Checking here, on the very addresses the connection
   * will use, is what defeats DNS rebinding: a name that resolved to a public address for an
   * earlier check cannot resolve to 10.0.0.1 by the time we connect, because there is no
   * earlier check. Every address of the name must be public, as the socket may try any of them.
   */
  const guardedLookup: LookupFunction = (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', undefined);
      if (!unrestricted(hostname) && addresses.some((a) => isPrivateAddress(a.address))) {
        return callback(targetNotAllowed(), '', undefined);
      }
      if (options.all) return callback(null, addresses, undefined);
      const [first] = addresses;
      if (!first)
        return callback(
          Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }),
          '',
          undefined,
        );
      return callback(null, first.address, first.family);
    });
  };

  return { literalAllowed, lookup: guardedLookup };
}
