import { type Concatenation, decodeText, splitUserDataHeader } from './short-message.js';

/**
 * Reads a submit_sm from its raw octets. The `smpp` package has already parsed the PDU, but it
 * also decodes short_message with its own tables; the simulator records what was on the wire,
 * so it reads the body itself (SMPP 3.4 §4.4.1).
 */

const HEADER_LENGTH = 16;
const UDH_INDICATOR = 0x40;
const TLV_MESSAGE_PAYLOAD = 0x0424;
const TLV_SAR_MSG_REF_NUM = 0x020c;
const TLV_SAR_TOTAL_SEGMENTS = 0x020e;
const TLV_SAR_SEGMENT_SEQNUM = 0x020f;

export interface SubmitSmFields {
  serviceType: string;
  sourceAddr: string;
  sourceAddrTon: number;
  sourceAddrNpi: number;
  destinationAddr: string;
  destAddrTon: number;
  destAddrNpi: number;
  esmClass: number;
  protocolId: number;
  priorityFlag: number;
  registeredDelivery: number;
  dataCoding: number;
  /** short_message (or the message_payload TLV when short_message is empty) as hex, UDH included. */
  shortMessageHex: string;
  /** The UDH as hex, null without the UDH indicator in esm_class. */
  udhHex: string | null;
  /** From UDH IE 0x00/0x08, or else from the sar_* TLVs. */
  concat: Concatenation | null;
  /** Decoded text of the message (UDH excluded); null for codings without readable text. */
  text: string | null;
}

export class MalformedPduError extends Error {
  override name = 'MalformedPduError';
}

class Reader {
  offset = HEADER_LENGTH;
  constructor(private readonly octets: Buffer) {}

  get remaining(): number {
    return this.octets.length - this.offset;
  }

  u8(): number {
    const value = this.octets[this.offset];
    if (value === undefined) throw new MalformedPduError('PDU ends inside a mandatory field');
    this.offset += 1;
    return value;
  }

  u16(): number {
    if (this.remaining < 2) throw new MalformedPduError('PDU ends inside a TLV header');
    const value = this.octets.readUInt16BE(this.offset);
    this.offset += 2;
    return value;
  }

  cstring(): string {
    const end = this.octets.indexOf(0, this.offset);
    if (end < 0) throw new MalformedPduError('C-octet string without its NUL');
    const value = this.octets.toString('latin1', this.offset, end);
    this.offset = end + 1;
    return value;
  }

  bytes(length: number): Buffer {
    if (length > this.remaining) throw new MalformedPduError('field longer than the PDU');
    const value = this.octets.subarray(this.offset, this.offset + length);
    this.offset += length;
    return value;
  }
}

export function readSubmitSm(pdu: Buffer): SubmitSmFields {
  const reader = new Reader(pdu);
  const serviceType = reader.cstring();
  const sourceAddrTon = reader.u8();
  const sourceAddrNpi = reader.u8();
  const sourceAddr = reader.cstring();
  const destAddrTon = reader.u8();
  const destAddrNpi = reader.u8();
  const destinationAddr = reader.cstring();
  const esmClass = reader.u8();
  const protocolId = reader.u8();
  const priorityFlag = reader.u8();
  reader.cstring(); // schedule_delivery_time
  reader.cstring(); // validity_period
  const registeredDelivery = reader.u8();
  reader.u8(); // replace_if_present_flag
  const dataCoding = reader.u8();
  reader.u8(); // sm_default_msg_id
  let shortMessage = reader.bytes(reader.u8());

  const tlvs = new Map<number, Buffer>();
  while (reader.remaining >= 4) {
    const tag = reader.u16();
    tlvs.set(tag, reader.bytes(reader.u16()));
  }
  const payloadTlv = tlvs.get(TLV_MESSAGE_PAYLOAD);
  if (shortMessage.length === 0 && payloadTlv) shortMessage = payloadTlv;

  let payload = shortMessage;
  let udhHex: string | null = null;
  let concat: Concatenation | null = null;
  if (esmClass & UDH_INDICATOR) {
    const split = splitUserDataHeader(shortMessage);
    if (!split) throw new MalformedPduError('UDH longer than short_message');
    payload = split.payload;
    udhHex = split.udh.hex;
    concat = split.udh.concat;
  }
  concat ??= sarConcatenation(tlvs);

  return {
    serviceType,
    sourceAddr,
    sourceAddrTon,
    sourceAddrNpi,
    destinationAddr,
    destAddrTon,
    destAddrNpi,
    esmClass,
    protocolId,
    priorityFlag,
    registeredDelivery,
    dataCoding,
    shortMessageHex: shortMessage.toString('hex'),
    udhHex,
    concat,
    text: decodeText(dataCoding, payload),
  };
}

function sarConcatenation(tlvs: ReadonlyMap<number, Buffer>): Concatenation | null {
  const ref = tlvs.get(TLV_SAR_MSG_REF_NUM);
  const total = tlvs.get(TLV_SAR_TOTAL_SEGMENTS)?.[0];
  const seq = tlvs.get(TLV_SAR_SEGMENT_SEQNUM)?.[0];
  if (ref?.length !== 2 || total === undefined || seq === undefined) return null;
  return { ref: ref.readUInt16BE(0), total, seq, refBits: 16 };
}
