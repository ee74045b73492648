import { describe, expect, it } from 'vitest';
import { deliverSmOctets } from '../test/support.js';
import { readDeliverSmOctets } from './deliver-sm-octets.js';

const deliverSm = (shortMessage: Buffer, tlvs?: Buffer) =>
  deliverSmOctets({
    sourceAddr: '46701112233',
    destinationAddr: '46709998877',
    esmClass: 0x40,
    dataCoding: 8,
    shortMessage,
    ...(tlvs ? { tlvs } : {}),
  });

describe('readDeliverSmOctets', () => {
  it('when short_message holds the text, then its octets come back with esm_class and data_coding', () => {
    const octets = Buffer.from('0500030a0201004100', 'hex');
    expect(readDeliverSmOctets(deliverSm(octets))).toEqual({
      source: { ton: 1, octets: Buffer.from('46701112233') },
      destination: { ton: 1, octets: Buffer.from('46709998877') },
      esmClass: 0x40,
      dataCoding: 8,
      payload: octets,
    });
  });

  it('when the source address is alphanumeric GSM-7, then its TON and raw octets come back', () => {
    const gsm = Buffer.from('0e7361', 'hex'); // 'Åsa' in GSM-7
    const pdu = deliverSmOctets({
      sourceAddr: gsm,
      sourceTon: 5,
      destinationAddr: '46709998877',
      esmClass: 0,
      dataCoding: 0,
      shortMessage: Buffer.from('hi'),
    });
    expect(readDeliverSmOctets(pdu)?.source).toEqual({ ton: 5, octets: gsm });
  });

  it('when short_message is empty, then the message_payload TLV is read', () => {
    const payload = Buffer.from('00480069', 'hex');
    const tlv = Buffer.concat([Buffer.from([0x04, 0x24, 0, payload.length]), payload]);
    expect(readDeliverSmOctets(deliverSm(Buffer.alloc(0), tlv))?.payload).toEqual(payload);
  });

  it('when the PDU is cut short, then nothing is read', () => {
    expect(
      readDeliverSmOctets(deliverSm(Buffer.from('abcdef', 'latin1')).subarray(0, 40)),
    ).toBeUndefined();
  });
});
