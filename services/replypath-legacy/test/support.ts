import { connect } from 'node:net';
import { hashSecret } from '@msg/auth';
import type { AccountState } from '@msg/contracts';
import { accountState, listenLocal, publishAccount, startTestRuntime } from '@msg/testing';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { loadReplypathLegacyConfig } from '../src/config.js';
import { startReplypathLegacy } from '../src/service.js';
import { type FakeReplypath, REPLYPATH_TOKEN, startFakeReplypath } from './fake-replypath.js';

export const PASSWORD = 'correct horse battery staple';
export const SENDSMS = '/v1/replypath/sendsms';

/**
 * The legacy reply-path service on the in-process bus and an embedded database of its own, against
 * `replypathUrl`, listening on 127.0.0.1 (raw requests need a socket), with helpers that play the
 * admin service (accounts.v1) and call the three forms.
 */
export async function startTestLegacy(replypathUrl: string, { timeout = '2s' } = {}) {
  const runtime = await startTestRuntime({ service: 'replypath-legacy' });
  const config = loadReplypathLegacyConfig({
    LOG_LEVEL: 'error',
    NODE_ENV: 'test',
    REPLYPATH_URL: replypathUrl,
    REPLYPATH_INTERNAL_TOKEN: REPLYPATH_TOKEN,
    REPLYPATH_TIMEOUT_MS: timeout,
  });
  const service = await startReplypathLegacy(config, runtime);
  const server = await listenLocal(service.app);
  const passwordHash = await hashSecret(PASSWORD);

  return {
    app: service.app,

    /** An active account with the 'replypath' permission and the test password; override anything. */
    account(overrides: Partial<AccountState> = {}): AccountState {
      return accountState({ passwordHash, permissions: ['replypath'], ...overrides });
    },

    /** Publishes as the admin service does and waits until the service knows this version. */
    publishAccount: (state: AccountState) =>
      publishAccount(runtime.bus, state, (s) => service.accounts.byId(s.id)?.version === s.version),

    /** GET with To and Msg in the query. */
    getQuery(acct: AccountState, query: Record<string, string>, password = PASSWORD) {
      return request(service.app).get(SENDSMS).query(query).auth(acct.name, password);
    },

    /** GET with To and Msg as path segments, given already encoded. */
    getPath(acct: AccountState, to: string, msg: string, password = PASSWORD) {
      return request(service.app).get(`${SENDSMS}/${to}/${msg}`).auth(acct.name, password);
    },

    /** POST with a JSON body (an object is serialised; a string or Buffer is sent as is). */
    post(acct: AccountState, body: unknown, password = PASSWORD) {
      const req = request(service.app).post(SENDSMS).auth(acct.name, password);
      if (typeof body === 'string' || Buffer.isBuffer(body)) {
        return req.set('Content-Type', 'application/json').send(body);
      }
      return req.send(body as object);
    },

    /**
     * Sends `head` (request line and headers, CRLF-separated, without the blank line) and `body`
     * exactly as given over a socket: the only way to send no Content-Length at all.
     */
    raw(
      head: string,
      body: string | Buffer = '',
    ): Promise<{ status: number; headers: string; body: string }> {
      return new Promise((resolve, reject) => {
        const socket = connect(server.port, '127.0.0.1');
        let received = '';
        socket.on('data', (chunk) => {
          received += chunk.toString('utf8');
        });
        socket.on('error', reject);
        socket.on('end', () => {
          const [headers = '', rest = ''] = received.split('\r\n\r\n');
          resolve({ status: Number(headers.split(' ')[1]), headers, body: rest });
        });
        socket.write(`${head}\r\nConnection: close\r\n\r\n`);
        socket.write(body);
      });
    },

    async stop() {
      await server.close();
      await service.stop();
      await runtime.stop();
    },
  };
}

export type TestLegacy = Awaited<ReturnType<typeof startTestLegacy>>;

/** `Authorization: Basic …` of an account with the test password. */
export function basicHeader(acct: AccountState, password = PASSWORD): string {
  return `Basic ${Buffer.from(`${acct.name}:${password}`).toString('base64')}`;
}

export interface Started {
  replypath: FakeReplypath;
  legacy: TestLegacy;
  /** An active account with the permission, published. */
  acct: AccountState;
}

/**
 * The fixture of a test file: a fake replypath service and the legacy service against it,
 * started before the file's tests (handed to `onStarted`), stopped after them; the fake forgets
 * what it saw and was told before each test.
 */
export function withFakeReplypath(
  options: { timeout?: string },
  onStarted: (started: Started) => void,
): void {
  let started: Started | undefined;
  beforeAll(async () => {
    const replypath = await startFakeReplypath();
    const legacy = await startTestLegacy(replypath.url, options);
    const acct = await legacy.publishAccount(legacy.account());
    started = { replypath, legacy, acct };
    onStarted(started);
  }, 60_000);
  afterAll(async () => {
    await started?.legacy.stop();
    await started?.replypath.close();
  });
  beforeEach(() => started?.replypath.reset());
}
