/** TLV tag of message_payload, used instead of short_message for long payloads (§5.3.2.32). */
const MESSAGE_PAYLOAD_TAG = 0x0424;
const HEADER_OCTETS = 16;

export interface DeliverSmOctets {
  esmClass: number;
  dataCoding: number;
  /** short_message, or the message_payload TLV when short_message is empty. */
  payload: Buffer;
}

/**
 * Reads esm_class, data_coding and the message octets from a whole deliver_sm PDU (header
 * included), following the mandatory parameter layout of SMPP 3.4 §4.6.1. Returns undefined
 * when the PDU is shorter than its fields say.
 */
export function readDeliverSmOctets(pdu: Buffer): DeliverSmOctets | undefined {
  let at = HEADER_OCTETS;
  const cstring = () => {
    const end = pdu.indexOf(0, at);
    if (end < 0) throw new RangeError('unterminated C-octet string');
    at = end + 1;
  };
  const octet = () => {
    const value = pdu[at];
    if (value === undefined) throw new RangeError('PDU ends early');
    at += 1;
    return value;
  };
  try {
    cstring(); // service_type
    octet(); // source_addr_ton
    octet(); // source_addr_npi
    cstring(); // source_addr
    octet(); // dest_addr_ton
    octet(); // dest_addr_npi
    cstring(); // destination_addr
    const esmClass = octet();
    octet(); // protocol_id
    octet(); // priority_flag
    cstring(); // schedule_delivery_time
    cstring(); // validity_period
    octet(); // registered_delivery
    octet(); // replace_if_present_flag
    const dataCoding = octet();
    octet(); // sm_default_msg_id
    const smLength = octet();
    if (at + smLength > pdu.length) return undefined;
    let payload = pdu.subarray(at, at + smLength);
    at += smLength;
    while (payload.length === 0 && at + 4 <= pdu.length) {
      const tag = pdu.readUInt16BE(at);
      const length = pdu.readUInt16BE(at + 2);
      if (tag === MESSAGE_PAYLOAD_TAG) payload = pdu.subarray(at + 4, at + 4 + length);
      at += 4 + length;
    }
    return { esmClass, dataCoding, payload: Buffer.from(payload) };
  } catch {
    return undefined;
  }
}
