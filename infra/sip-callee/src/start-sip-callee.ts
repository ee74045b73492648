import { mkdirSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type Logger } from '@msg/logger';
import { type Behaviour, isBehaviour } from './behaviours.js';
import { CalleeState, type CallRecord } from './callee-state.js';
import { createControlApp } from './control-app.js';
import { openSipTransport } from './sip-transport.js';
import { type CalleeTimings, createUas, DEFAULT_TIMINGS } from './uas.js';

export interface SipCalleeOptions {
  /** Listen address of SIP, RTP and the control API; default 127.0.0.1 (no authentication). */
  host?: string;
  /** SIP UDP port; 0 (the default) picks a free one. */
  sipPort?: number;
  /** Control API port; 0 (the default) picks a free one. */
  controlPort?: number;
  /** Behaviour of a number with neither a rule nor a special suffix; default `human`. */
  defaultBehaviour?: Behaviour;
  /** Where recordings go; default a new temporary directory. */
  recordDir?: string;
  /** With both, INVITEs are challenged (401, digest MD5 qop=auth) until they authenticate. */
  username?: string;
  password?: string;
  /** Overrides of the call timings (tests shorten them); README "Timings". */
  timings?: Partial<CalleeTimings>;
  logger?: Logger;
}

export interface SipCallee {
  sipHost: string;
  sipPort: number;
  /** http://host:port, no trailing slash. */
  controlUrl: string;
  recordDir: string;
  /** Sets the behaviour of one dialled number. Throws RangeError on an unknown behaviour. */
  setRule(number: string, behaviour: Behaviour): void;
  calls(): CallRecord[];
  /** Forgets the call log and per-number counts (as DELETE /calls). */
  clearCalls(): void;
  close(): Promise<void>;
}

const urlHost = (host: string) => (host.includes(':') ? `[${host}]` : host);

/** Starts the SIP callee; SIP and the control API listen before this resolves. */
export async function startSipCallee(options: SipCalleeOptions = {}): Promise<SipCallee> {
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? createLogger({ service: 'sip-callee', level: 'warn' });
  const defaultBehaviour = options.defaultBehaviour ?? 'human';
  if (!isBehaviour(defaultBehaviour)) {
    throw new RangeError(`defaultBehaviour: unknown behaviour ${String(defaultBehaviour)}`);
  }
  if ((options.username === undefined) !== (options.password === undefined)) {
    throw new RangeError('username and password: give both or neither');
  }
  const recordDir = options.recordDir ?? mkdtempSync(join(tmpdir(), 'sip-callee-'));
  mkdirSync(recordDir, { recursive: true });

  const state = new CalleeState(defaultBehaviour);
  const uas = createUas({
    host,
    state,
    recordDir,
    timings: { ...DEFAULT_TIMINGS, ...options.timings },
    ...(options.username !== undefined &&
      options.password !== undefined && {
        credentials: { username: options.username, password: options.password },
      }),
    logger,
  });
  const transport = await openSipTransport({
    host,
    port: options.sipPort ?? 0,
    logger,
    onRequest: uas.onRequest,
    onAck: uas.onAck,
  });
  uas.attach(transport);

  const server = createServer(createControlApp(state, logger));
  let controlPort: number;
  try {
    controlPort = await new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.controlPort ?? 0, host, () => {
        server.off('error', reject);
        const address: AddressInfo | string | null = server.address();
        resolve(typeof address === 'object' && address !== null ? address.port : 0);
      });
    });
  } catch (error) {
    await transport.close();
    throw error;
  }
  logger.info('sip callee listening', { sipPort: transport.port, controlPort, recordDir });

  return {
    sipHost: host,
    sipPort: transport.port,
    controlUrl: `http://${urlHost(host)}:${controlPort}`,
    recordDir,
    setRule(number, behaviour) {
      if (!isBehaviour(behaviour)) throw new RangeError(`behaviour: unknown ${String(behaviour)}`);
      state.setRule(number, behaviour);
    },
    calls: () => state.calls(),
    clearCalls: () => state.clearCalls(),
    async close() {
      await uas.close();
      await transport.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
