import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SmscSimulator, startSmscSimulator } from '../src/index.js';
import { connectClient, control, submitFields, type TestClient } from './smpp-test-client.js';

const ESME_RMSGQFUL = 0x14;
const ESME_RTHROTTLED = 0x58;
const UDH_INDICATOR = 0x40;

let simulator: SmscSimulator;
let client: TestClient;

const ucs2 = (text: string) => Buffer.from(text, 'utf16le').swap16();

beforeEach(async () => {
  simulator = await startSmscSimulator({ throttlePerSecond: 3 });
  client = await connectClient(simulator.port);
  await client.bind('transceiver');
});

afterEach(async () => {
  await client.close();
  await simulator.close();
});

describe('submit_sm', () => {
  it('when a GSM-7 message with € (0x1B 0x65) is submitted, then it is recorded decoded', async () => {
    const octets = Buffer.concat([Buffer.from('Pris: 5'), Buffer.from([0x1b, 0x65, 0x00])]);
    const response = await client.request(
      'submit_sm',
      submitFields({ short_message: octets, registered_delivery: 1 }),
    );
    expect(response.command_status).toBe(0);
    expect(response.message_id).toMatch(/^[0-9a-f]{16}$/);
    expect(simulator.submits()).toEqual([
      expect.objectContaining({
        messageId: response.message_id,
        systemId: 'smsc',
        sourceAddr: 'Acme',
        sourceAddrTon: 5,
        sourceAddrNpi: 0,
        destinationAddr: '46701234567',
        destAddrTon: 1,
        destAddrNpi: 1,
        dataCoding: 0,
        esmClass: 0,
        registeredDelivery: 1,
        shortMessageHex: '507269733a20351b6500',
        udhHex: null,
        concat: null,
        text: 'Pris: 5€@',
      }),
    ]);
  });

  it('when two messages are submitted, then each gets its own message id', async () => {
    const first = await client.request('submit_sm', submitFields({ short_message: 'a' }));
    const second = await client.request('submit_sm', submitFields({ short_message: 'b' }));
    expect(first.message_id).not.toBe(second.message_id);
  });

  it('when a UCS-2 message is submitted, then its text is decoded big-endian', async () => {
    const octets = ucs2('Привет 😀');
    await client.request('submit_sm', submitFields({ data_coding: 8, short_message: octets }));
    const [recorded] = simulator.submits();
    expect(recorded?.text).toBe('Привет 😀');
    expect(recorded?.shortMessageHex).toBe(octets.toString('hex'));
  });

  it('when a Latin-1 message is submitted, then its text is decoded as Latin-1', async () => {
    const octets = Buffer.from('Hej Åsa', 'latin1');
    await client.request('submit_sm', submitFields({ data_coding: 3, short_message: octets }));
    expect(simulator.submits()[0]?.text).toBe('Hej Åsa');
  });

  it('when a 2-part message with an 8-bit concat UDH is submitted, then ref/total/seq are recorded', async () => {
    for (const [seq, part] of [
      [1, 'First part '],
      [2, 'second part'],
    ] as const) {
      const udh = Buffer.from([0x05, 0x00, 0x03, 0x2a, 0x02, seq]);
      const response = await client.request(
        'submit_sm',
        submitFields({
          esm_class: UDH_INDICATOR,
          short_message: Buffer.concat([udh, Buffer.from(part)]),
        }),
      );
      expect(response.command_status).toBe(0);
    }
    expect(simulator.submits().map((s) => [s.concat, s.udhHex, s.text, s.esmClass])).toEqual([
      [{ ref: 0x2a, total: 2, seq: 1, refBits: 8 }, '0500032a0201', 'First part ', UDH_INDICATOR],
      [{ ref: 0x2a, total: 2, seq: 2, refBits: 8 }, '0500032a0202', 'second part', UDH_INDICATOR],
    ]);
  });

  it('when a UCS-2 part carries a 16-bit concat UDH, then the 16-bit reference is recorded', async () => {
    const udh = Buffer.from([0x06, 0x08, 0x04, 0x12, 0x34, 0x03, 0x02]);
    await client.request(
      'submit_sm',
      submitFields({
        esm_class: UDH_INDICATOR,
        data_coding: 8,
        short_message: Buffer.concat([udh, ucs2('Ω part')]),
      }),
    );
    const [recorded] = simulator.submits();
    expect(recorded?.concat).toEqual({ ref: 0x1234, total: 3, seq: 2, refBits: 16 });
    expect(recorded?.text).toBe('Ω part');
  });
});

describe('throttling', () => {
  it('when more submits than the rate arrive within a second, then the extra ones get ESME_RTHROTTLED', async () => {
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        client.request('submit_sm', submitFields({ short_message: `m${i}` })),
      ),
    );
    const statuses = responses.map((r) => r.command_status).sort((a, b) => a - b);
    expect(statuses).toEqual([0, 0, 0, ESME_RTHROTTLED, ESME_RTHROTTLED]);
    expect(simulator.stats()).toMatchObject({ submits: 3, throttled: 2 });
    expect(simulator.submits()).toHaveLength(3);
  });

  it('when the queue-full switch is on, then submits get ESME_RMSGQFUL until it is off', async () => {
    const put = await control(simulator.controlUrl, 'PUT', '/throttle', {
      perSecond: null,
      queueFull: true,
    });
    expect(put).toEqual({ status: 200, body: { perSecond: null, queueFull: true } });
    const refused = await client.request('submit_sm', submitFields({ short_message: 'x' }));
    expect(refused.command_status).toBe(ESME_RMSGQFUL);
    await control(simulator.controlUrl, 'PUT', '/throttle', { queueFull: false });
    const accepted = await client.request('submit_sm', submitFields({ short_message: 'x' }));
    expect(accepted.command_status).toBe(0);
    expect(simulator.stats()).toMatchObject({ queueFull: 1, submits: 1 });
  });
});
