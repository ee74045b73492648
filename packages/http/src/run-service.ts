import type { Logger } from '@msg/logger';
import type { Express } from 'express';
import { flushLogger, onSigterm, type ShutdownStep } from './shutdown.js';
import { startServer } from './start-server.js';

export interface RunServiceOptions {
  name: string;
  logger: Logger;
  port: number;
  host: string;
  /** Default process.exit; tests pass their own. */
  exit?: (code: number) => void;
}

export interface BuiltService {
  app: Express;
  /** Closed in order after the HTTP server has drained: consumers, relays, then bus and database. */
  closers: Array<ShutdownStep | (() => Promise<void> | void)>;
}

/**
 * The whole life of a deployed service process, shared by every main.ts: build the service, listen,
 * and on SIGTERM drain HTTP, then close its dependencies in order. A failure while building is
 * logged and ends the process with exit code 1 (Kubernetes restarts it).
 */
export async function runService(
  { name, logger, port, host, exit = (code) => process.exit(code) }: RunServiceOptions,
  build: () => Promise<BuiltService>,
): Promise<void> {
  try {
    const { app, closers } = await build();
    const server = await startServer(app, { port, host, logger });
    logger.info('listening', { service: name, url: server.url });
    onSigterm([{ name: 'http', close: server.close }, ...closers], logger, { exit });
  } catch (error) {
    logger.error('start-up failed', { service: name, error });
    await flushLogger(logger);
    exit(1);
  }
}
