import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type HlrSimulator, startHlrSimulator } from '@msg/hlr-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHlrClient } from '../src/live/hlr-client.js';
import { testLogger } from './support.js';

let hlr: HlrSimulator;
let silent: Server;
let silentUrl: string;
beforeAll(async () => {
  hlr = await startHlrSimulator({ credentials: 'numbers:right', logger: testLogger });
  // Accepts connections and never answers.
  silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const address: AddressInfo | string | null = silent.address();
  silentUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await hlr?.close();
  silent?.closeAllConnections();
  await new Promise((resolve) => silent?.close(resolve));
});

const client = (url: string, password = 'right', timeoutMs = 2000) =>
  createHlrClient({ url, username: 'numbers', password, timeoutMs, logger: testLogger });

describe('HLR provider adapter', () => {
  it('when the provider answers, then the state, the network time and the subscriber details', async () => {
    hlr.setStatus('46701000001', 'barred');
    const answer = await client(hlr.url).query('46701000001');
    expect(answer).toMatchObject({
      state: 'barred',
      checkedAt: expect.any(Date),
      mcc: '240',
      imsi: expect.stringMatching(/^240/),
    });
  });

  it('when the provider refuses the credentials (401), then unavailable', async () => {
    expect(await client(hlr.url, 'wrong').query('46701000002')).toBe('unavailable');
  });

  it('when the provider answers 503, then unavailable', async () => {
    hlr.setStatus('46701000003', 'unavailable');
    expect(await client(hlr.url).query('46701000003')).toBe('unavailable');
  });

  it('when nothing listens at the URL, then unavailable', async () => {
    const closed = await startHlrSimulator({ credentials: 'a:b', logger: testLogger });
    await closed.close();
    expect(await client(closed.url).query('46701000004')).toBe('unavailable');
  });

  it('when the provider does not answer in time, then unavailable', async () => {
    expect(await client(silentUrl, 'right', 200).query('46701000005')).toBe('unavailable');
  });
});
