/** TLV tag of message_payload, used instead of short_message for long payloads (§5.3.2.32). */
const MESSAGE_PAYLOAD_TAG = 0x0424;
const HEADER_OCTETS = 16;

/** An address field as received: its TON and the octets of its C-octet string. */
export interface WireAddress {
  ton: number;
  octets: Buffer;
}

export interface DeliverSmOctets {
  /** source_addr and destination_addr, undecoded: the `smpp` package reads them as ASCII. */
  source: WireAddress;
  destination: WireAddress;
  esmClass: number;
  dataCoding: number;
  /** short_message, or the message_payload TLV when short_message is empty. */
  payload: Buffer;
}

/**
 * Reads the addresses, esm_class, data_coding and the message octets from a whole deliver_sm PDU (header
 * included), following the mandatory parameter layout of SMPP 3.4 §4.6.1. Returns undefined
 * when the PDU is shorter than its fields say.
 */
export function readDeliverSmOctets(pdu: Buffer): DeliverSmOctets | undefined {
  let at = HEADER_OCTETS;
  const cstring = () => {
    const end = pdu.indexOf(0, at);
    if (end < 0) throw new RangeError('unterminated C-octet string');
    const octets = Buffer.from(pdu.subarray(at, end));
    at = end + 1;
    return octets;
  };
  const octet = () => {
    const value = pdu[at];
    if (value === undefined) throw new RangeError('PDU ends early');
    at += 1;
    return value;
  };
  try {
    cstring(); // service_type
    const sourceTon = octet();
    octet(); // source_addr_npi
    const source = { ton: sourceTon, octets: cstring() };
    const destinationTon = octet();
    octet(); // dest_addr_npi
    const destination = { ton: destinationTon, octets: cstring() };
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
    return { source, destination, esmClass, dataCoding, payload: Buffer.from(payload) };
  } catch {
    return undefined;
  }
}
