import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SmscSimulator, startSmscSimulator } from '../src/index.js';
import {
  connectClient,
  control,
  messageText,
  submitFields,
  type TestClient,
} from './smpp-test-client.js';

let simulator: SmscSimulator;
const clients: TestClient[] = [];

async function boundClient(systemId = 'smsc', password = 'smsc') {
  const client = await connectClient(simulator.port);
  clients.push(client);
  expect((await client.bind('transceiver', systemId, password)).command_status).toBe(0);
  return client;
}

beforeEach(async () => {
  simulator = await startSmscSimulator({ credentials: 'smsc:smsc,other:other' });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await simulator.close();
});

describe('POST /inbound', () => {
  it('when a GSM text is posted, then the bound client gets it as deliver_sm with data_coding 0', async () => {
    const client = await boundClient();
    const { status, body } = await control(simulator.controlUrl, 'POST', '/inbound', {
      from: '+46701234567',
      to: '71234',
      text: 'STOP {now} €',
    });
    expect(status).toBe(202);
    expect(body).toEqual({ messageId: expect.stringMatching(/^[0-9a-f]{16}$/) });
    const [pdu] = await client.waitForDelivered(1);
    expect(pdu).toMatchObject({
      esm_class: 0,
      data_coding: 0,
      source_addr: '46701234567',
      source_addr_ton: 1,
      destination_addr: '71234',
    });
    expect(messageText(pdu)).toBe('STOP {now} €');
    expect(simulator.stats().inboundSent).toBe(1);
  });

  it('when the text is outside GSM-7, then it is sent as UCS-2 (data_coding 8)', async () => {
    const client = await boundClient();
    await control(simulator.controlUrl, 'POST', '/inbound', {
      from: '+46701234567',
      to: '71234',
      text: 'Hej 😀 Ж',
    });
    const [pdu] = await client.waitForDelivered(1);
    expect(pdu?.data_coding).toBe(8);
    expect(messageText(pdu)).toBe('Hej 😀 Ж');
  });

  it('when a system_id is named, then only its session gets the message', async () => {
    const smsc = await boundClient();
    const other = await boundClient('other', 'other');
    await control(simulator.controlUrl, 'POST', '/inbound', {
      from: '+46701234567',
      to: '71234',
      text: 'for other',
      system_id: 'other',
    });
    await other.waitForDelivered(1);
    expect(smsc.delivered).toHaveLength(0);
  });

  it('when nobody is bound, then it answers 409', async () => {
    const { status } = await control(simulator.controlUrl, 'POST', '/inbound', {
      from: '+46701234567',
      to: '71234',
      text: 'hello',
    });
    expect(status).toBe(409);
  });

  it('when a field is missing, then it answers 400 naming it', async () => {
    await boundClient();
    const { status, body } = await control(simulator.controlUrl, 'POST', '/inbound', {
      from: '+46701234567',
      text: 'hello',
    });
    expect(status).toBe(400);
    expect(body).toEqual({ message: 'to: expected a non-empty string' });
  });
});

describe('inspection and settings', () => {
  it('when submits were made, then GET /submits lists them and GET /stats counts them', async () => {
    const client = await boundClient();
    await client.request('submit_sm', submitFields({ short_message: 'one' }));
    const submits = await control(simulator.controlUrl, 'GET', '/submits');
    expect(submits.status).toBe(200);
    expect(submits.body).toEqual([expect.objectContaining({ text: 'one', dataCoding: 0 })]);
    const stats = await control(simulator.controlUrl, 'GET', '/stats');
    expect(stats.body).toMatchObject({ binds: 1, submits: 1, boundSessions: 1, throttled: 0 });
  });

  it('when submits were made, then GET /stats gives the times of the first and the last', async () => {
    const client = await boundClient();
    expect(simulator.stats()).toMatchObject({ firstSubmitAt: null, lastSubmitAt: null });
    await client.request('submit_sm', submitFields({ short_message: 'one' }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await client.request('submit_sm', submitFields({ short_message: 'two' }));
    const [first, last] = simulator.submits();
    const stats = await control(simulator.controlUrl, 'GET', '/stats');
    expect(stats.body).toMatchObject({
      firstSubmitAt: first?.receivedAt,
      lastSubmitAt: last?.receivedAt,
    });
    expect(Date.parse(last?.receivedAt ?? '')).toBeGreaterThan(Date.parse(first?.receivedAt ?? ''));
  });

  it('when GET /submits is asked from a number, then only later submits are listed and the header says how many were recorded', async () => {
    const client = await boundClient();
    for (const text of ['one', 'two', 'three']) {
      await client.request('submit_sm', submitFields({ short_message: text }));
    }
    const res = await fetch(`${simulator.controlUrl}/submits?from=2`);
    expect(res.headers.get('x-submits-recorded')).toBe('3');
    expect(((await res.json()) as { text: string }[]).map((s) => s.text)).toEqual(['three']);
    const bad = await control(simulator.controlUrl, 'GET', '/submits?from=-1');
    expect(bad).toEqual({
      status: 400,
      body: { message: 'from: expected a non-negative integer' },
    });
  });

  it('when more submits arrive than are kept, then the oldest are forgotten and still counted', async () => {
    await simulator.close();
    simulator = await startSmscSimulator({ maxRecordedSubmits: 2 });
    const client = await boundClient();
    for (const text of ['one', 'two', 'three']) {
      await client.request('submit_sm', submitFields({ short_message: text }));
    }
    expect(simulator.submits().map((s) => s.text)).toEqual(['two', 'three']);
    expect(simulator.stats().submits).toBe(3);
  });

  it('when reset is posted, then recorded submits and counters are cleared', async () => {
    const client = await boundClient();
    await client.request('submit_sm', submitFields({ short_message: 'one' }));
    expect((await control(simulator.controlUrl, 'POST', '/reset')).status).toBe(204);
    expect((await control(simulator.controlUrl, 'GET', '/submits')).body).toEqual([]);
    expect(simulator.stats()).toMatchObject({
      binds: 0,
      submits: 0,
      firstSubmitAt: null,
      boundSessions: 1,
    });
  });

  it('when rules are malformed, then PUT /rules answers 400 and keeps the old rules', async () => {
    const { status, body } = await control(simulator.controlUrl, 'PUT', '/rules', {
      rules: '+46=LOST',
    });
    expect(status).toBe(400);
    expect(body).toEqual({ message: expect.stringContaining('"+46=LOST"') });
    expect(simulator.rules()).toEqual([{ prefix: '*', outcome: 'DELIVRD' }]);
  });

  it('when rules are given as objects, then PUT /rules takes them', async () => {
    const rules = [{ prefix: '+4670000', outcome: 'UNDELIV' }];
    expect(await control(simulator.controlUrl, 'PUT', '/rules', { rules })).toEqual({
      status: 200,
      body: { rules },
    });
  });

  it('when the throttle rate is not a positive integer, then PUT /throttle answers 400', async () => {
    const { status } = await control(simulator.controlUrl, 'PUT', '/throttle', { perSecond: 0 });
    expect(status).toBe(400);
  });
});
