import type { Request } from 'express';

/**
 * Rewrites the forwarding headers so that services behind the gateway see only what the gateway
 * vouches for. The gateway is the edge: a client may send any X-Forwarded-For it likes, so
 * entries are kept only as far as express's "trust proxy" (TRUSTED_PROXIES) believes them, and
 * the address the gateway itself saw is appended. With no trusted proxies a client's
 * X-Forwarded-For is dropped entirely. (http-proxy's `xfwd` would append to the client's header
 * unchecked, which is why it is off.)
 */
export function setForwardedHeaders(req: Request): void {
  // req.ips: farthest first, from the first untrusted address (the client) up to the nearest
  // trusted proxy; empty when the peer itself is not trusted. The peer comes last.
  const peer = req.socket.remoteAddress;
  const chain = peer ? [...req.ips, peer] : [...req.ips];
  if (chain.length > 0) req.headers['x-forwarded-for'] = chain.join(', ');
  else delete req.headers['x-forwarded-for'];

  // Both getters honour "trust proxy": a client's X-Forwarded-Proto/-Host count only behind a
  // trusted proxy; otherwise they are what this connection actually used.
  req.headers['x-forwarded-proto'] = req.protocol;
  const host = req.host;
  if (host) req.headers['x-forwarded-host'] = host;
  else delete req.headers['x-forwarded-host'];

  // Other spellings of the same claims that no one vouched for.
  delete req.headers.forwarded;
  delete req.headers['x-real-ip'];
  delete req.headers['x-forwarded-port'];
}
