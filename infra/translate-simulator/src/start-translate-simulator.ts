import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger, type Logger } from '@msg/logger';
import { createSimulatorState, type Fault, type ReceivedRequest } from './simulator-state.js';
import { createTranslateApp } from './translate-app.js';

export interface TranslateSimulatorOptions {
  /** Listen port; 0 (the default) picks a free one. */
  port?: number;
  /** Listen address; default 127.0.0.1 (the control API has no authentication). */
  host?: string;
  /** When set, requests need one of these api_key values (unknown 403, missing 400). */
  apiKeys?: readonly string[];
  charLimit?: number;
  requestsPerMinute?: number;
  /** Language codes offered on /languages (default: LibreTranslate's full set). */
  languages?: readonly string[];
  logger?: Logger;
}

export interface TranslateSimulator {
  /** http://host:port, no trailing slash. */
  url: string;
  port: number;
  /** Requests to POST /translate since start or reset. */
  requests(): ReceivedRequest[];
  /** Applies a fault to the next `count` translations (default 1). */
  setFault(fault: Omit<Fault, 'count'> & { count?: number }): void;
  reset(): void;
  close(): Promise<void>;
}

const urlHost = (host: string) => (host.includes(':') ? `[${host}]` : host);

/** Starts the LibreTranslate-compatible simulator; it listens before this resolves. */
export async function startTranslateSimulator(
  options: TranslateSimulatorOptions = {},
): Promise<TranslateSimulator> {
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? createLogger({ service: 'translate-simulator', level: 'warn' });
  const state = createSimulatorState();
  const server = createServer(
    createTranslateApp({
      state,
      logger,
      apiKeys: options.apiKeys,
      charLimit: options.charLimit,
      requestsPerMinute: options.requestsPerMinute,
      languages: options.languages,
    }),
  );
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      const address: AddressInfo | string | null = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  });
  logger.info('translate simulator listening', { port });
  return {
    url: `http://${urlHost(host)}:${port}`,
    port,
    requests: () => state.requests(),
    setFault: (fault) => state.setFault({ ...fault, count: fault.count ?? 1 }),
    reset: () => state.reset(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
