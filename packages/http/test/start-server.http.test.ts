import { once } from 'node:events';
import { Agent, get, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createService } from '../src/create-service.js';
import { type RunningServer, startServer } from '../src/start-server.js';
import { captureLogs } from './support.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

interface Reply {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

async function fetchText(url: string, agent: Agent | false = false): Promise<Reply> {
  const req = get(url, { agent });
  const res: IncomingMessage = (await once(req, 'response'))[0];
  let body = '';
  for await (const chunk of res) body += String(chunk);
  return { status: res.statusCode ?? 0, headers: res.headers, body };
}

async function connectionRefused(port: number): Promise<boolean> {
  const socket = connect(port, '127.0.0.1');
  try {
    await once(socket, 'connect');
    return false;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'ECONNREFUSED';
  } finally {
    socket.destroy();
  }
}

function slowService() {
  const entered = deferred();
  const release = deferred();
  const logs = captureLogs();
  const app = createService({
    name: 'slow',
    logger: logs.logger,
    routes(app) {
      app.get('/slow', async (_req, res) => {
        entered.resolve();
        await release.promise;
        res.json({ done: true });
      });
    },
  });
  return { app, entered, release, logs };
}

describe('startServer', () => {
  const servers: RunningServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('when port 0 is asked for, then it listens on a free port and says where', async () => {
    const { app, logs } = slowService();
    const server = await startServer(app, { port: 0, host: '127.0.0.1', logger: logs.logger });
    servers.push(server);
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect((await fetchText(`${server.url}/healthz`)).status).toBe(200);
  });

  it('when closing with a request in flight, then it finishes, new connections are refused, and close waits for it', async () => {
    const { app, entered, release, logs } = slowService();
    const onShutdown = vi.fn(async () => {});
    const server = await startServer(app, {
      port: 0,
      host: '127.0.0.1',
      logger: logs.logger,
      onShutdown,
    });
    const inFlight = fetchText(`${server.url}/slow`);
    await entered.promise;

    let closed = false;
    const closing = server.close().then(() => {
      closed = true;
    });
    expect(await connectionRefused(server.port)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(false);
    expect(onShutdown).not.toHaveBeenCalled();

    release.resolve();
    const reply = await inFlight;
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({ done: true });
    expect(reply.headers.connection).toBe('close');
    await closing;
    expect(closed).toBe(true);
    expect(onShutdown).toHaveBeenCalledOnce();
  });

  it('when a request outlives the drain timeout, then its connection is cut and close resolves', async () => {
    const { app, entered, logs } = slowService();
    const server = await startServer(app, {
      port: 0,
      host: '127.0.0.1',
      logger: logs.logger,
      drainTimeoutMs: 100,
    });
    const inFlight = fetchText(`${server.url}/slow`).then(
      () => 'answered',
      () => 'cut',
    );
    await entered.promise;
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await inFlight).toBe('cut');
    expect(logs.lines).toContainEqual(
      expect.objectContaining({ message: 'drain timed out; closing remaining connections' }),
    );
  });

  it('when a keep-alive connection is idle, then close does not wait for it to time out', async () => {
    const { app, logs } = slowService();
    const server = await startServer(app, {
      port: 0,
      host: '127.0.0.1',
      logger: logs.logger,
      drainTimeoutMs: 5_000,
    });
    const agent = new Agent({ keepAlive: true });
    try {
      expect((await fetchText(`${server.url}/healthz`, agent)).status).toBe(200);
      const started = Date.now();
      await server.close();
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      agent.destroy();
    }
  });

  it('when close is called twice, then both calls wait for the same shutdown', async () => {
    const { app, logs } = slowService();
    const onShutdown = vi.fn(async () => {});
    const server = await startServer(app, {
      port: 0,
      host: '127.0.0.1',
      logger: logs.logger,
      onShutdown,
    });
    await Promise.all([server.close(), server.close()]);
    expect(onShutdown).toHaveBeenCalledOnce();
  });
});
