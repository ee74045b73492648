import { describe, expect, it } from 'vitest';
import { buildRtp, parseRtp } from './rtp-packet.js';

describe('RTP', () => {
  it('when a packet is built and parsed, then every field survives, wrapped to its width', () => {
    const payload = Buffer.alloc(160, 0xff);
    const parsed = parseRtp(
      buildRtp({
        payloadType: 0,
        marker: true,
        sequence: 65_536 + 7,
        timestamp: 2 ** 32 + 160,
        ssrc: 0xdeadbeef,
        payload,
      }),
    );
    expect(parsed).toEqual({
      payloadType: 0,
      marker: true,
      sequence: 7,
      timestamp: 160,
      ssrc: 0xdeadbeef,
      payload,
    });
  });

  it('when a packet has CSRCs, an extension and padding, then the payload is what is left', () => {
    const header = Buffer.from([0xb1, 0x00, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3]);
    const csrc = Buffer.alloc(4);
    const extension = Buffer.from([0xbe, 0xde, 0, 1, 1, 2, 3, 4]);
    const datagram = Buffer.concat([header, csrc, extension, Buffer.from([9, 9, 0, 0, 2])]);
    expect(parseRtp(datagram)?.payload).toEqual(Buffer.from([9, 9, 0]));
  });

  it('when the datagram is not RTP version 2 or too short, then it is ignored', () => {
    expect(parseRtp(Buffer.alloc(11, 0x80))).toBeUndefined();
    expect(parseRtp(Buffer.alloc(20, 0x40))).toBeUndefined();
  });
});
