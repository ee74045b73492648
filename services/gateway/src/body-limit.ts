import type { IncomingMessage } from 'node:http';

/** True when the declared Content-Length is over the limit: refuse before reading a byte. */
export function declaredLengthExceeds(req: IncomingMessage, limitBytes: number): boolean {
  const declared = req.headers['content-length'];
  if (declared === undefined) return false;
  const length = Number(declared);
  // Node's parser has already rejected a malformed Content-Length; be strict anyway.
  return !Number.isSafeInteger(length) || length > limitBytes;
}

/**
 * Counts body bytes as they stream through and calls `onExceeded` once when a body without a
 * Content-Length (chunked) grows past the limit, so the gateway can cut it off. The body is
 * never buffered.
 *
 * Why the pause: a 'data' listener would start the stream flowing at once, and chunks read
 * before the proxy pipes the request upstream would be lost to it. Paused, the listener only
 * observes; the proxy's pipe() resumes the stream, and this listener, registered first, sees
 * every chunk before it is written upstream.
 */
export function watchBodySize(
  req: IncomingMessage,
  limitBytes: number,
  onExceeded: (receivedBytes: number) => void,
): void {
  let received = 0;
  let exceeded = false;
  req.pause();
  req.on('data', (chunk: Buffer) => {
    if (exceeded) return;
    received += chunk.length;
    if (received > limitBytes) {
      exceeded = true;
      onExceeded(received);
    }
  });
}
