// RTP fixed header (RFC 3550 §5.1) for the audio we send and the audio we receive.

export interface RtpPacket {
  payloadType: number;
  marker: boolean;
  sequence: number; // 16 bit
  timestamp: number; // 32 bit, in samples
  ssrc: number; // 32 bit
  payload: Buffer;
}

const HEADER_BYTES = 12;

export function encodeRtp(packet: RtpPacket): Buffer {
  const out = Buffer.allocUnsafe(HEADER_BYTES + packet.payload.length);
  out[0] = 0x80; // version 2, no padding, no extension, no CSRC
  out[1] = (packet.marker ? 0x80 : 0) | (packet.payloadType & 0x7f);
  out.writeUInt16BE(packet.sequence & 0xffff, 2);
  out.writeUInt32BE(packet.timestamp >>> 0, 4);
  out.writeUInt32BE(packet.ssrc >>> 0, 8);
  packet.payload.copy(out, HEADER_BYTES);
  return out;
}

/** Parses an RTP packet; undefined for anything that is not RTP version 2 (RTCP, STUN, junk). */
export function decodeRtp(data: Buffer): RtpPacket | undefined {
  if (data.length < HEADER_BYTES || data[0] === undefined || data[1] === undefined)
    return undefined;
  if (data[0] >> 6 !== 2) return undefined;
  const payloadType = data[1] & 0x7f;
  if (payloadType >= 72 && payloadType <= 76) return undefined; // RTCP on a shared port
  let offset = HEADER_BYTES + (data[0] & 0x0f) * 4; // CSRC list
  if (data[0] & 0x10) {
    if (data.length < offset + 4) return undefined;
    offset += 4 + data.readUInt16BE(offset + 2) * 4; // header extension
  }
  let end = data.length;
  if (data[0] & 0x20) end -= data[data.length - 1] ?? 0; // padding count in the last byte
  if (end < offset) return undefined;
  return {
    payloadType,
    marker: (data[1] & 0x80) !== 0,
    sequence: data.readUInt16BE(2),
    timestamp: data.readUInt32BE(4),
    ssrc: data.readUInt32BE(8),
    payload: data.subarray(offset, end),
  };
}
