import type { SipTrunk } from '@msg/sip-call';

const TRUNK = /^sip:(?:([^:@]+)(?::([^@]*))?@)?([^:@/;?]+)(?::(\d{1,5}))?$/;

/**
 * VOICE_SIP_TRUNK, `sip:[user[:password]@]host[:port]` (port 5060 when absent; user and password
 * percent-decoded), as createSipCaller takes it; undefined when it is not that form.
 */
export function parseSipTrunk(uri: string): SipTrunk | undefined {
  const match = TRUNK.exec(uri);
  if (!match) return undefined;
  const [, user, password, host, port] = match;
  const portNumber = port === undefined ? 5060 : Number(port);
  if (!host || portNumber < 1 || portNumber > 65_535) return undefined;
  try {
    return {
      host,
      port: portNumber,
      ...(user !== undefined && { username: decodeURIComponent(user) }),
      ...(password !== undefined && { password: decodeURIComponent(password) }),
    };
  } catch {
    return undefined; // a malformed percent escape
  }
}
