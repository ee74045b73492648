import { describe, expect, it } from 'vitest';
import { MalformedPduError, readSubmitSm } from './submit-sm-wire.js';

const cstring = (text: string) => Buffer.from(`${text}\0`, 'latin1');

/** A submit_sm PDU built by hand, so this test does not lean on the parser it checks. */
interface PduParts {
  esmClass?: number;
  dataCoding?: number;
  tlvs?: Buffer;
}

function submitSmPdu(shortMessage: Buffer, parts: PduParts = {}) {
  const { esmClass = 0, dataCoding = 0, tlvs = Buffer.alloc(0) } = parts;
  const body = Buffer.concat([
    cstring(''),
    Buffer.from([1, 1]),
    cstring('46700000001'),
    Buffer.from([1, 1]),
    cstring('46701234567'),
    Buffer.from([esmClass, 0, 0]),
    cstring(''),
    cstring(''),
    Buffer.from([1, 0, dataCoding, 0, shortMessage.length]),
    shortMessage,
    tlvs,
  ]);
  const header = Buffer.alloc(16);
  header.writeUInt32BE(16 + body.length, 0);
  header.writeUInt32BE(0x04, 4);
  header.writeUInt32BE(7, 12);
  return Buffer.concat([header, body]);
}

function tlv(tag: number, value: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(tag, 0);
  head.writeUInt16BE(value.length, 2);
  return Buffer.concat([head, value]);
}

describe('readSubmitSm', () => {
  it('when short_message is empty, then the message_payload TLV is the message', () => {
    const fields = readSubmitSm(
      submitSmPdu(Buffer.alloc(0), { tlvs: tlv(0x0424, Buffer.from('long text')) }),
    );
    expect(fields.text).toBe('long text');
    expect(fields.registeredDelivery).toBe(1);
    expect(fields.sourceAddr).toBe('46700000001');
  });

  it('when the parts are numbered by sar_* TLVs, then those give the concatenation', () => {
    const tlvs = Buffer.concat([
      tlv(0x020c, Buffer.from([0x01, 0x02])),
      tlv(0x020e, Buffer.from([3])),
      tlv(0x020f, Buffer.from([1])),
    ]);
    expect(readSubmitSm(submitSmPdu(Buffer.from('x'), { tlvs })).concat).toEqual({
      ref: 0x0102,
      total: 3,
      seq: 1,
      refBits: 16,
    });
  });

  it('when the coding carries no text (binary), then text is null but the octets are kept', () => {
    const fields = readSubmitSm(submitSmPdu(Buffer.from([0xde, 0xad]), { dataCoding: 4 }));
    expect(fields).toMatchObject({ text: null, shortMessageHex: 'dead', dataCoding: 4 });
  });

  it('when the UDH claims more octets than the message has, then it is malformed', () => {
    expect(() => readSubmitSm(submitSmPdu(Buffer.from([0x09, 0x00]), { esmClass: 0x40 }))).toThrow(
      MalformedPduError,
    );
  });

  it('when the PDU is cut short, then it is malformed', () => {
    const whole = submitSmPdu(Buffer.from('hello'));
    expect(() => readSubmitSm(whole.subarray(0, 30))).toThrow(MalformedPduError);
  });
});
