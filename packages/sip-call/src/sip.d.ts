// Type declarations for the parts of the `sip` npm package (kirm/sip.js) this package uses.
// sip.js ships plain JavaScript; shapes follow its doc/api.markdown and sip.js source.

declare module 'sip' {
  export interface SipUri {
    schema?: string;
    user?: string;
    password?: string;
    host: string;
    port?: number;
    params: Record<string, string | null | undefined>;
    headers?: Record<string, string>;
  }

  export interface NameAddr {
    name?: string;
    uri: string | SipUri;
    params: Record<string, string | null | undefined>;
  }

  export interface Via {
    version?: string;
    protocol?: string;
    host?: string;
    port?: number;
    params: Record<string, string | number | null | undefined>;
  }

  /** A Digest challenge or credentials header, parameters as received (quoted strings stay quoted). */
  export type AuthHeader = { scheme: string } & Record<string, string | undefined>;

  export interface Headers {
    via?: Via[];
    from: NameAddr;
    to: NameAddr;
    'call-id': string;
    cseq: { seq: number; method: string };
    contact?: NameAddr[];
    route?: NameAddr[];
    'record-route'?: NameAddr[];
    'www-authenticate'?: AuthHeader[];
    'proxy-authenticate'?: AuthHeader[];
    authorization?: AuthHeader[];
    'proxy-authorization'?: AuthHeader[];
    'content-type'?: string;
    'max-forwards'?: number | string;
    [name: string]: unknown;
  }

  export interface SipRequest {
    method: string;
    uri: string;
    version?: string;
    headers: Headers;
    content?: string;
  }

  export interface SipResponse {
    status: number;
    reason?: string;
    version?: string;
    headers: Headers;
    content?: string;
  }

  export interface Remote {
    protocol: string;
    address: string;
    port: number;
  }

  export interface StackOptions {
    port?: number;
    address?: string;
    publicAddress?: string;
    hostname?: string;
    udp?: boolean;
    tcp?: boolean;
    rport?: boolean;
    logger?: {
      send?(message: SipRequest | SipResponse, target: Remote): void;
      recv?(message: SipRequest | SipResponse, remote: Remote): void;
      error?(error: unknown): void;
    };
  }

  /** One SIP stack: transport + transaction layer (what `sip.start` installs module-wide). */
  export interface SipStack {
    send(message: SipRequest, callback?: (response: SipResponse) => void): void;
    send(message: SipResponse): void;
    hostname(): string;
    destroy(): void;
  }

  export function create(
    options: StackOptions,
    onRequest: (request: SipRequest, remote: Remote) => void,
  ): SipStack;
  export function makeResponse(request: SipRequest, status: number, reason?: string): SipResponse;
  export function parseUri(uri: string | SipUri): SipUri;
  export function stringifyUri(uri: string | SipUri): string;
  export function generateBranch(): string;
}

declare module 'sip/digest.js' {
  import type { SipRequest, SipResponse } from 'sip';

  /** Client digest state; sip.js fills it in from the challenge (nonce, realm, qop, nc...). */
  export type DigestSession = Record<string, unknown>;

  export function signRequest(
    session: DigestSession,
    request: SipRequest,
    challenge?: SipResponse,
    credentials?: { user: string; password: string; realm?: string },
  ): DigestSession | null;
}
