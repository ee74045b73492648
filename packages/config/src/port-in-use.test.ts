import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portInUseMessage } from './port-in-use.js';

/** What Node itself throws when a second server listens on a taken port. */
async function refusedListen(port: number): Promise<unknown> {
  const second = createServer();
  second.listen(port, '127.0.0.1');
  const [error] = await once(second, 'error');
  return error;
}

describe('portInUseMessage', () => {
  let taken: Server;
  let port: number;

  beforeAll(async () => {
    taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    port = (taken.address() as { port: number }).port;
  });
  afterAll(() => {
    taken.close();
  });

  it('when a listen was refused for a taken port, then the message names the port and the setting that chose it', async () => {
    const error = await refusedListen(port);
    expect(portInUseMessage(error, { PORT: port, ADMIN_PORT: 8081, HOST: '127.0.0.1' })).toBe(
      `port ${port} on 127.0.0.1 is in use: set PORT to a free port (0 picks one)`,
    );
    expect(portInUseMessage(error, { PORT: 8080, SMSC_CONTROL_PORT: port })).toMatch(
      /: set SMSC_CONTROL_PORT to a free port/,
    );
  });

  it('when the refusal is the cause of another error, then it is found there', async () => {
    const error = new Error('admin did not start', { cause: await refusedListen(port) });
    expect(portInUseMessage(error, { ADMIN_PORT: port })).toMatch(/set ADMIN_PORT to/);
  });

  it('when no setting chose the port (a free one was taken meanwhile), then only the port is named', async () => {
    expect(portInUseMessage(await refusedListen(port), { PORT: 8080 })).toBe(
      `port ${port} on 127.0.0.1 is in use`,
    );
  });

  it('when the failure is anything else, then there is no message (the error keeps its stack)', () => {
    expect(portInUseMessage(new Error('boom'), { PORT: 8080 })).toBeUndefined();
    expect(portInUseMessage({ code: 'EACCES', port: 80 }, { PORT: 80 })).toBeUndefined();
    expect(portInUseMessage(undefined, {})).toBeUndefined();
  });
});
