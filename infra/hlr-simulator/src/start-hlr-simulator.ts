import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger, type Logger } from '@msg/logger';
import { parseCredentials } from './credentials.js';
import { createHlrApp } from './hlr-app.js';
import { createHlrState } from './hlr-state.js';

export interface HlrSimulatorOptions {
  /** Listen port; 0 (the default) picks a free one. */
  port?: number;
  /** Listen address; default 127.0.0.1 (the control API has no authentication). */
  host?: string;
  /** The one accepted Basic credential, `user:pass`. */
  credentials: string;
  logger?: Logger;
}

export interface HlrSimulator {
  /** http://host:port, no trailing slash; lookups are `${url}/v1/hlr/{msisdn}`. */
  url: string;
  port: number;
  /** Lookups answered (200 or 503) since start or reset, in all or for one number. */
  queries(msisdn?: string): number;
  /** Overrides a number's answer; `unavailable` gives 503. Throws RangeError on other values. */
  setStatus(msisdn: string, status: string): void;
  /** Clears every override and count. */
  reset(): void;
  close(): Promise<void>;
}

const urlHost = (host: string) => (host.includes(':') ? `[${host}]` : host);

/** Starts the simulated HLR provider; it listens before this resolves. */
export async function startHlrSimulator(options: HlrSimulatorOptions): Promise<HlrSimulator> {
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? createLogger({ service: 'hlr-simulator', level: 'warn' });
  const state = createHlrState();
  const server = createServer(
    createHlrApp({ state, credentials: parseCredentials(options.credentials), logger }),
  );
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      const address: AddressInfo | string | null = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  });
  logger.info('hlr simulator listening', { port });
  return {
    url: `http://${urlHost(host)}:${port}`,
    port,
    queries: (msisdn) => state.queries(msisdn),
    setStatus: (msisdn, status) => state.setStatus(msisdn, status),
    reset: () => state.reset(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
