import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger, type Logger } from '@msg/logger';
import express, { type NextFunction, type Request, type Response } from 'express';
import { controlRouter } from './control-api.js';
import { sendGoogleError } from './google-error.js';
import { serviceAccountFrom } from './jwt-assertion.js';
import { type PlatformOptions, platformRouter } from './platform-api.js';
import { createRbmState } from './rbm-state.js';
import { createWebhookPusher, type WebhookTarget } from './webhook-pusher.js';

export interface RbmSimulatorOptions {
  /** Listen port; 0 (the default) picks a free one. */
  port?: number;
  /** Listen address; default 127.0.0.1 (the control API has no authentication). */
  host?: string;
  /**
   * The agent's service account: tokens are issued only for JWT assertions signed by this key.
   * `key` is the key file's private_key (its public half is used) or a public key PEM.
   */
  serviceAccount: { clientEmail: string; key: string };
  /** Where user events are pushed; also settable by `PUT /control/webhook`. */
  webhook?: WebhookTarget;
  /** Delay from accepting a message to its DELIVERED push; default 200 ms. */
  deliverDelayMs?: number;
  /** Delay from DELIVERED to READ; default 500 ms. */
  readDelayMs?: number;
  /** Access token lifetime; default 3600 s (as Google's). */
  tokenLifetimeS?: number;
  /** Push attempts per event before giving up; default 5, backoff from pushRetryBaseMs. */
  pushAttempts?: number;
  pushRetryBaseMs?: number;
  logger?: Logger;
  now?: () => number;
}

export interface RbmSimulator {
  /** http://host:port: the RBM base URL; the token URL is `${url}/token`. */
  url: string;
  tokenUrl: string;
  port: number;
  /** Points pushes at a webhook (the handshake runs again before the next push); same as PUT /control/webhook. */
  setWebhook(target: WebhookTarget | undefined): void;
  close(): Promise<void>;
}

const urlHost = (host: string) => (host.includes(':') ? `[${host}]` : host);

/** Starts the simulated RBM platform; it listens before this resolves. */
export async function startRbmSimulator(options: RbmSimulatorOptions): Promise<RbmSimulator> {
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? createLogger({ service: 'rbm-simulator', level: 'warn' });
  const state = createRbmState();
  const pusher = createWebhookPusher({
    logger,
    attempts: options.pushAttempts ?? 5,
    retryBaseMs: options.pushRetryBaseMs ?? 200,
    timeoutMs: 10_000,
    subscription: 'projects/rbm-simulator/subscriptions/rbm-agent-events',
  });
  if (options.webhook) pusher.setTarget(options.webhook);
  let baseUrl = '';
  const platform: PlatformOptions = {
    state,
    pusher,
    serviceAccount: serviceAccountFrom(
      options.serviceAccount.clientEmail,
      options.serviceAccount.key,
    ),
    ownTokenUrl: () => `${baseUrl}/token`,
    deliverDelayMs: options.deliverDelayMs ?? 200,
    readDelayMs: options.readDelayMs ?? 500,
    tokenLifetimeS: options.tokenLifetimeS ?? 3600,
    logger,
    now: options.now ?? Date.now,
  };

  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use('/control', controlRouter(platform));
  app.use(platformRouter(platform));
  app.use((_req, res) => sendGoogleError(res, 'NOT_FOUND', 'Method not found.'));
  // Unparseable bodies and oversize payloads: Google's 400 shape, never an HTML 500.
  app.use(
    (
      error: { status?: number; message?: string },
      _req: Request,
      res: Response,
      _next: NextFunction,
    ) => {
      if (error.status && error.status < 500) {
        sendGoogleError(
          res,
          'INVALID_ARGUMENT',
          `Invalid JSON payload received. ${error.message ?? ''}`.trim(),
        );
        return;
      }
      logger.error('rbm simulator error', { error: String(error) });
      sendGoogleError(res, 'INTERNAL', 'Internal error encountered.');
    },
  );

  const server = createServer(app);
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      const address: AddressInfo | string | null = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  });
  baseUrl = `http://${urlHost(host)}:${port}`;
  logger.info('rbm simulator listening', { port });
  return {
    url: baseUrl,
    tokenUrl: `${baseUrl}/token`,
    port,
    setWebhook: (target) => pusher.setTarget(target),
    close: () =>
      new Promise<void>((resolve) => {
        state.reset();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
