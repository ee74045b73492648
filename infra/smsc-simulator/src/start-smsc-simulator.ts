import { createServer } from 'node:http';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { createLogger, type Logger } from '@msg/logger';
import { createControlApp } from './control-app.js';
import { parseCredentials } from './credentials.js';
import { checkRules, DEFAULT_RULES, parseRules, type ReceiptRule } from './receipt-rules.js';
import { createSmscServer } from './smsc-server.js';
import type { SmscControl, SmscCredential } from './smsc-types.js';

export interface SmscSimulatorOptions {
  /** SMPP port; 0 (the default) picks a free one. */
  port?: number;
  /** SMPP listen address; default 127.0.0.1. */
  host?: string;
  /** Control API port; 0 (the default) picks a free one. */
  controlPort?: number;
  /** Control API listen address; default 127.0.0.1 (the API has no authentication). */
  controlHost?: string;
  /** Accepted binds, as objects or `system_id:password,...`; default smsc:smsc. */
  credentials?: readonly SmscCredential[] | string;
  /** Delay between submit_sm and its receipt; default 500. */
  receiptDelayMs?: number;
  /** Receipt outcome by destination prefix, as objects or `prefix=OUTCOME,...`; default *=DELIVRD. */
  rules?: readonly ReceiptRule[] | string;
  /** Submits per second accepted per bind; null or absent for no limit. */
  throttlePerSecond?: number | null;
  /** How many recorded submits are kept for GET /submits (the newest); default 100,000. */
  maxRecordedSubmits?: number;
  /** Start with every submit answered ESME_RMSGQFUL. */
  queueFull?: boolean;
  logger?: Logger;
}

export interface SmscSimulator extends SmscControl {
  host: string;
  port: number;
  /** smpp://host:port, what an SMPP client connects to. */
  smppUrl: string;
  /** http://host:port of the control API, no trailing slash. */
  controlUrl: string;
  close(): Promise<void>;
}

function listen(server: NetServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address: AddressInfo | string | null = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

function closeServer(server: NetServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

const urlHost = (host: string) => (host.includes(':') ? `[${host}]` : host);

/** Starts the SMPP server and its control API; both listen before this resolves. */
export async function startSmscSimulator(
  options: SmscSimulatorOptions = {},
): Promise<SmscSimulator> {
  const host = options.host ?? '127.0.0.1';
  const controlHost = options.controlHost ?? '127.0.0.1';
  const logger = options.logger ?? createLogger({ service: 'smsc-simulator', level: 'warn' });
  const credentials =
    typeof options.credentials === 'string'
      ? parseCredentials(options.credentials)
      : (options.credentials ?? [{ systemId: 'smsc', password: 'smsc' }]);
  const rules =
    typeof options.rules === 'string'
      ? parseRules(options.rules)
      : checkRules(options.rules ?? DEFAULT_RULES);

  const smsc = createSmscServer({
    credentials,
    receiptDelayMs: options.receiptDelayMs ?? 500,
    rules,
    throttle: {
      perSecond: options.throttlePerSecond ?? null,
      queueFull: options.queueFull ?? false,
    },
    logger,
    ...(options.maxRecordedSubmits !== undefined && {
      maxRecordedSubmits: options.maxRecordedSubmits,
    }),
  });
  const port = await listen(smsc.server, options.port ?? 0, host);
  const http = createServer(createControlApp(smsc));
  let controlPort: number;
  try {
    controlPort = await listen(http, options.controlPort ?? 0, controlHost);
  } catch (error) {
    smsc.shutdown();
    await closeServer(smsc.server);
    throw error;
  }
  logger.info('smsc simulator listening', { port, controlPort });

  const { server: _server, shutdown, ...control } = smsc;
  return {
    ...control,
    host,
    port,
    smppUrl: `smpp://${urlHost(host)}:${port}`,
    controlUrl: `http://${urlHost(controlHost)}:${controlPort}`,
    async close() {
      shutdown();
      http.closeAllConnections();
      await Promise.all([closeServer(smsc.server), closeServer(http)]);
    },
  };
}
