import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';

/** A request the receiver got. */
export interface ReceivedCallback {
  method: string;
  /** Path and query, on a placeholder origin. */
  url: URL;
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as received (signatures are checked over it). */
  body: string;
}

/**
 * Received headers as a webhook verifier takes them (`new Webhook(secret).verify(body, headers)`
 * of the standardwebhooks package): one string per name.
 */
export function headerRecord(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)]));
}

/**
 * An HTTP server on 127.0.0.1 standing for a customer's callback endpoint: it records every
 * request and answers `answer(status)`'s status (200 until told otherwise), or as `reply` does
 * (e.g. never, for a timeout).
 */
export async function startCallbackReceiver(reply?: (res: ServerResponse) => void) {
  const received: ReceivedCallback[] = [];
  let status = 200;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: new URL(req.url ?? '/', 'http://receiver'),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (reply) reply(res);
      else res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer(next: number) {
      status = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type CallbackReceiver = Awaited<ReturnType<typeof startCallbackReceiver>>;
