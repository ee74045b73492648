/** RTP (RFC 3550) fixed header, as much of it as a G.711 endpoint needs. */
export interface RtpPacket {
  payloadType: number;
  marker: boolean;
  sequence: number;
  timestamp: number;
  ssrc: number;
  payload: Buffer;
}

export const PCMU_PAYLOAD_TYPE = 0;
const HEADER_BYTES = 12;

/** Parses one datagram; undefined when it is not RTP version 2 or its lengths do not add up. */
export function parseRtp(datagram: Buffer): RtpPacket | undefined {
  if (datagram.length < HEADER_BYTES) return undefined;
  const first = datagram[0] ?? 0;
  if (first >> 6 !== 2) return undefined;
  const padding = (first & 0x20) !== 0;
  const extension = (first & 0x10) !== 0;
  const csrcCount = first & 0x0f;
  let offset = HEADER_BYTES + csrcCount * 4;
  if (extension) {
    if (datagram.length < offset + 4) return undefined;
    offset += 4 + datagram.readUInt16BE(offset + 2) * 4;
  }
  let end = datagram.length;
  if (padding) end -= datagram[datagram.length - 1] ?? 0;
  if (end < offset) return undefined;
  const second = datagram[1] ?? 0;
  return {
    payloadType: second & 0x7f,
    marker: (second & 0x80) !== 0,
    sequence: datagram.readUInt16BE(2),
    timestamp: datagram.readUInt32BE(4),
    ssrc: datagram.readUInt32BE(8),
    payload: datagram.subarray(offset, end),
  };
}

export function buildRtp(packet: RtpPacket): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header[0] = 0x80;
  header[1] = (packet.marker ? 0x80 : 0) | (packet.payloadType & 0x7f);
  header.writeUInt16BE(packet.sequence & 0xffff, 2);
  header.writeUInt32BE(packet.timestamp >>> 0, 4);
  header.writeUInt32BE(packet.ssrc >>> 0, 8);
  return Buffer.concat([header, packet.payload]);
}
