import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers one request; may be async (a slow receiver). */
export type Reply = (req: ReceivedRequest, res: ServerResponse, n: number) => unknown;

/**
 * A callback receiver on 127.0.0.1 that records every request and how many it was handling at
 * once at most (for the per-target limit).
 */
export async function startReceiver(reply: Reply = (_req, res) => res.writeHead(204).end()) {
  const received: ReceivedRequest[] = [];
  let active = 0;
  let maxActive = 0;
  const server = createServer((req, res) => {
    active += 1;
    maxActive = Math.max(maxActive, active);
    res.on('close', () => {
      active -= 1;
    });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(entry);
      void reply(entry, res, received.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    maxConcurrent: () => maxActive,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
