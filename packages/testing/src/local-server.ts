import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server on 127.0.0.1 and a free port (fakes of other services, a service under test). */
export interface LocalServer {
  url: string;
  port: number;
  /** Stops listening and drops open connections (keep-alive ones included). */
  close(): Promise<void>;
}

export async function listenLocal(handler: RequestListener): Promise<LocalServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A URL on 127.0.0.1 where nothing listens (a port just freed): an unreachable service. */
export async function deadUrl(): Promise<string> {
  const server = await listenLocal(() => {});
  await server.close();
  return server.url;
}
