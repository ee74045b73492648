import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SmscSimulator, startSmscSimulator } from '../src/index.js';
import { connectClient, control, submitFields, type TestClient } from './smpp-test-client.js';

const ESME_RINVBNDSTS = 0x04;
const ESME_RBINDFAIL = 0x0d;

let simulator: SmscSimulator;
const clients: TestClient[] = [];

async function client(): Promise<TestClient> {
  const created = await connectClient(simulator.port);
  clients.push(created);
  return created;
}

beforeEach(async () => {
  simulator = await startSmscSimulator({ credentials: 'smsc:smsc,other:pw2' });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await simulator.close();
});

describe('bind', () => {
  it('when binding as transceiver with configured credentials, then bind_resp is OK', async () => {
    const response = await (await client()).bind('transceiver');
    expect(response.command).toBe('bind_transceiver_resp');
    expect(response.command_status).toBe(0);
    expect(response.system_id).toBe('SMSC');
    expect(simulator.stats()).toMatchObject({ binds: 1, boundSessions: 1 });
  });

  it('when a second credential is configured, then it binds as transmitter and receiver', async () => {
    expect((await (await client()).bind('transmitter', 'other', 'pw2')).command_status).toBe(0);
    expect((await (await client()).bind('receiver', 'other', 'pw2')).command_status).toBe(0);
  });

  it('when the password is wrong, then the bind is refused with ESME_RBINDFAIL', async () => {
    const response = await (await client()).bind('transceiver', 'smsc', 'wrong');
    expect(response.command_status).toBe(ESME_RBINDFAIL);
    expect(simulator.stats()).toMatchObject({ binds: 0, bindsRefused: 1, boundSessions: 0 });
  });

  it('when the system_id is unknown, then the bind is refused with ESME_RBINDFAIL', async () => {
    const response = await (await client()).bind('transmitter', 'nobody', 'smsc');
    expect(response.command_status).toBe(ESME_RBINDFAIL);
  });

  it('when a refused client submits anyway, then it gets ESME_RINVBNDSTS', async () => {
    const refused = await client();
    await refused.bind('transceiver', 'smsc', 'wrong');
    const response = await refused.request('submit_sm', submitFields({ short_message: 'hi' }));
    expect(response.command_status).toBe(ESME_RINVBNDSTS);
    expect(simulator.submits()).toHaveLength(0);
  });

  it('when binds are refused through the control API, then good credentials fail until allowed', async () => {
    await control(simulator.controlUrl, 'POST', '/refuse-binds', { refuse: true });
    expect((await (await client()).bind('transceiver')).command_status).toBe(ESME_RBINDFAIL);
    await control(simulator.controlUrl, 'POST', '/refuse-binds', { refuse: false });
    expect((await (await client()).bind('transceiver')).command_status).toBe(0);
  });
});

describe('enquire_link and unbind', () => {
  it('when enquire_link is sent, then enquire_link_resp answers it', async () => {
    const bound = await client();
    await bound.bind('transceiver');
    const response = await bound.request('enquire_link');
    expect(response.command).toBe('enquire_link_resp');
    expect(response.command_status).toBe(0);
  });

  it('when unbinding, then unbind_resp comes and the simulator closes the connection', async () => {
    const bound = await client();
    await bound.bind('transceiver');
    const response = await bound.request('unbind');
    expect(response.command).toBe('unbind_resp');
    await bound.waitForClose();
    expect(simulator.stats().boundSessions).toBe(0);
  });

  it('when stop-binds is posted, then every session is dropped', async () => {
    const first = await client();
    const second = await client();
    await first.bind('transceiver');
    await second.bind('receiver');
    const { status, body } = await control(simulator.controlUrl, 'POST', '/stop-binds');
    expect(status).toBe(200);
    expect(body).toEqual({ dropped: 2 });
    await Promise.all([first.waitForClose(), second.waitForClose()]);
  });
});
