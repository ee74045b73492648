// Local declarations for the parts of kirm/sip.js (`sip` on npm, CommonJS, untyped) we use:
// its message parser and writer, its RFC 3261 transaction layer and its digest helpers.

declare module 'sip' {
  export interface SipUri {
    schema: string;
    user?: string;
    password?: string;
    host: string;
    port?: number;
    params: Record<string, string | null>;
    headers: Record<string, string>;
  }
  export interface NameAddr {
    name?: string;
    uri: string;
    params: Record<string, string | null>;
  }
  export interface Via {
    version?: string;
    protocol?: string;
    host?: string;
    port?: number;
    params: Record<string, string | number | null | undefined>;
  }
  export interface AuthHeader {
    scheme: string;
    [param: string]: string | undefined;
  }
  export interface SipHeaders {
    via: Via[];
    to: NameAddr;
    from: NameAddr;
    'call-id': string;
    cseq: { seq: number; method: string };
    contact?: NameAddr[];
    'record-route'?: NameAddr[];
    route?: NameAddr[];
    authorization?: AuthHeader[];
    'www-authenticate'?: AuthHeader[];
    [name: string]: unknown;
  }
  export interface SipMessage {
    method?: string;
    uri?: string | SipUri;
    status?: number;
    reason?: string;
    version?: string;
    headers: SipHeaders;
    content?: string;
  }
  export interface Connection {
    send(message: SipMessage): void;
    release(): void;
    protocol: string;
  }
  export interface ServerTransaction {
    send(response: SipMessage): void;
    message(request: SipMessage): void;
    shutdown(): void;
  }
  export interface ClientTransaction {
    message(response: SipMessage): void;
    shutdown(): void;
  }
  export interface TransactionLayer {
    createServerTransaction(request: SipMessage, connection: Connection): ServerTransaction;
    createClientTransaction(
      connection: Connection,
      request: SipMessage,
      onResponse: (response: SipMessage) => void,
    ): ClientTransaction;
    getServer(message: SipMessage): ServerTransaction | undefined;
    getClient(message: SipMessage): ClientTransaction | undefined;
    destroy(): void;
  }
  const sip: {
    parse(data: Buffer | string): SipMessage | undefined;
    stringify(message: SipMessage): string;
    makeResponse(
      request: SipMessage,
      status: number,
      reason?: string,
      extension?: { headers?: Record<string, unknown>; content?: string },
    ): SipMessage;
    parseUri(uri: string | SipUri): SipUri | undefined;
    stringifyUri(uri: string | SipUri): string;
    makeTransactionLayer(
      options: Record<string, unknown>,
      open: (target: { address: string; port: number }) => Connection,
    ): TransactionLayer;
  };
  export default sip;
}

declare module 'sip/digest.js' {
  const digest: {
    /** MD5(user:realm:password), hex. */
    calculateUserRealmPasswordHash(user: string, realm: string, password: string): string;
    /** The RFC 2617 request-digest for qop auth (or none when qop is undefined). */
    calculateDigest(context: {
      ha1: string;
      method: string;
      uri: string;
      nonce: string;
      nc?: string;
      cnonce?: string;
      qop?: string;
    }): string;
    /** A stateless nonce: an ISO timestamp with an HMAC over it and `tag`. */
    generateNonce(tag: string, timestamp?: Date): string;
    /** The nonce's timestamp when it was made by generateNonce with `tag`, else false/undefined. */
    extractNonceTimestamp(nonce: string, tag: string): Date | false | undefined;
  };
  export default digest;
}
