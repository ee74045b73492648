import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SmscSimulator, startSmscSimulator } from '../src/index.js';
import {
  connectClient,
  control,
  messageText,
  sleep,
  submitFields,
  type TestClient,
} from './smpp-test-client.js';

const RECEIPT_DELAY_MS = 150;
const RECEIPT_TEXT =
  /^id:(\w+) sub:001 dlvrd:(\d{3}) submit date:\d{10} done date:\d{10} stat:([A-Z]+) err:(\d{3}) text:(.*)$/;

let simulator: SmscSimulator;
const clients: TestClient[] = [];

async function boundClient(mode: 'transceiver' | 'transmitter' | 'receiver' = 'transceiver') {
  const client = await connectClient(simulator.port);
  clients.push(client);
  expect((await client.bind(mode)).command_status).toBe(0);
  return client;
}

async function submit(
  client: TestClient,
  destination: string,
  text = 'Hello receipt world, long text',
) {
  const response = await client.request(
    'submit_sm',
    submitFields({ destination_addr: destination, registered_delivery: 1, short_message: text }),
  );
  expect(response.command_status).toBe(0);
  return String(response.message_id);
}

beforeEach(async () => {
  simulator = await startSmscSimulator({
    receiptDelayMs: RECEIPT_DELAY_MS,
    rules: '+4670000=UNDELIV,+4670001=EXPIRED,+4670002=REJECTD,+4670003=NORECEIPT,*=DELIVRD',
  });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await simulator.close();
});

describe('delivery receipts', () => {
  it('when a receipt is requested, then deliver_sm arrives after the delay with stat DELIVRD', async () => {
    const client = await boundClient();
    const started = Date.now();
    const messageId = await submit(client, '46709999999');
    const [receipt] = await client.waitForDelivered(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(RECEIPT_DELAY_MS - 5);
    expect(receipt).toMatchObject({
      esm_class: 0x04,
      receipted_message_id: messageId,
      message_state: 2,
      source_addr: '46709999999',
      destination_addr: 'Acme',
    });
    const match = RECEIPT_TEXT.exec(messageText(receipt));
    expect(match?.slice(1)).toEqual([messageId, '001', 'DELIVRD', '000', 'Hello receipt world,']);
  });

  it.each([
    ['46700001111', 'UNDELIV', 5],
    ['46700011111', 'EXPIRED', 3],
    ['+46700021111', 'REJECTD', 8],
  ])(
    'when the destination is %s, then the rule gives stat %s',
    async (destination, stat, state) => {
      const client = await boundClient();
      const messageId = await submit(client, destination);
      const [receipt] = await client.waitForDelivered(1);
      expect(receipt?.receipted_message_id).toBe(messageId);
      expect(receipt?.message_state).toBe(state);
      expect(RECEIPT_TEXT.exec(messageText(receipt))?.[3]).toBe(stat);
    },
  );

  it('when the rule says NORECEIPT, then no receipt is sent', async () => {
    const client = await boundClient();
    await submit(client, '46700031111');
    await client.request('submit_sm', submitFields({ short_message: 'none asked' }));
    await sleep(RECEIPT_DELAY_MS * 3);
    expect(client.delivered).toHaveLength(0);
    expect(simulator.submits().map((s) => s.receiptOutcome)).toEqual(['NORECEIPT', null]);
    expect(simulator.stats()).toMatchObject({ receiptsSent: 0, receiptsPending: 0 });
  });

  it('when a 2-part message asks for receipts, then each part gets its own receipt', async () => {
    const client = await boundClient();
    const ids: string[] = [];
    for (const seq of [1, 2]) {
      const udh = Buffer.from([0x05, 0x00, 0x03, 0x07, 0x02, seq]);
      const response = await client.request(
        'submit_sm',
        submitFields({
          esm_class: 0x40,
          registered_delivery: 1,
          short_message: Buffer.concat([udh, Buffer.from(`part ${seq}`)]),
        }),
      );
      ids.push(String(response.message_id));
    }
    const receipts = await client.waitForDelivered(2);
    expect(receipts.map((r) => r.receipted_message_id).sort()).toEqual(ids.sort());
  });

  it('when a receipt falls due while nobody is bound, then it is delivered after a re-bind', async () => {
    const first = await boundClient();
    const messageId = await submit(first, '46709999999');
    await first.close();
    await sleep(RECEIPT_DELAY_MS * 2);
    expect(simulator.stats()).toMatchObject({ receiptsPending: 1, boundSessions: 0 });

    const second = await boundClient('receiver');
    const [receipt] = await second.waitForDelivered(1);
    expect(receipt?.receipted_message_id).toBe(messageId);
    await sleep(50); // let deliver_sm_resp reach the simulator
    expect(simulator.stats()).toMatchObject({ receiptsPending: 0, receiptsAcknowledged: 1 });
  });

  it('when a session drops before acknowledging a receipt, then the receipt is sent again', async () => {
    const silent = await connectClient(simulator.port, { acknowledge: false });
    clients.push(silent);
    await silent.bind('transceiver');
    const messageId = await submit(silent, '46709999999');
    await silent.waitForDelivered(1);
    await silent.close();

    const next = await boundClient();
    const [receipt] = await next.waitForDelivered(1);
    expect(receipt?.receipted_message_id).toBe(messageId);
    expect(simulator.stats().receiptsSent).toBe(2);
  });

  it('when a transmitter submits, then the receipt goes to the receiver bind of the same system_id', async () => {
    const transmitter = await boundClient('transmitter');
    const receiver = await boundClient('receiver');
    const messageId = await submit(transmitter, '46709999999');
    const [receipt] = await receiver.waitForDelivered(1);
    expect(receipt?.receipted_message_id).toBe(messageId);
    expect(transmitter.delivered).toHaveLength(0);
  });

  it('when rules are replaced at runtime, then the next receipt follows the new rules', async () => {
    const put = await control(simulator.controlUrl, 'PUT', '/rules', { rules: '*=DELETED' });
    expect(put.status).toBe(200);
    const client = await boundClient();
    await submit(client, '46709999999');
    const [receipt] = await client.waitForDelivered(1);
    expect(RECEIPT_TEXT.exec(messageText(receipt))?.[3]).toBe('DELETED');
    expect(receipt?.message_state).toBe(4);
  });
});
