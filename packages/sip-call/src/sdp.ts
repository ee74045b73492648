// SDP offer/answer (RFC 3264) for one audio stream: we offer PCMU (payload type 0) and
// telephone-event, and need PCMU and an address in the answer.
import { randomInt } from 'node:crypto';
import * as sdpTransform from 'sdp-transform';

export const TELEPHONE_EVENT_PAYLOAD_TYPE = 101;

export function createOffer(address: string, rtpPort: number): string {
  const sessionId = randomInt(1, 2 ** 47);
  return sdpTransform.write({
    version: 0,
    origin: {
      username: '-',
      sessionId,
      sessionVersion: sessionId,
      netType: 'IN',
      ipVer: 4,
      address,
    },
    name: 'call',
    connection: { version: 4, ip: address },
    timing: { start: 0, stop: 0 },
    media: [
      {
        type: 'audio',
        port: rtpPort,
        protocol: 'RTP/AVP',
        payloads: `0 ${TELEPHONE_EVENT_PAYLOAD_TYPE}`,
        rtp: [
          { payload: 0, codec: 'PCMU', rate: 8000 },
          { payload: TELEPHONE_EVENT_PAYLOAD_TYPE, codec: 'telephone-event', rate: 8000 },
        ],
        fmtp: [{ payload: TELEPHONE_EVENT_PAYLOAD_TYPE, config: '0-16' }],
        ptime: 20,
        direction: 'sendrecv',
      },
    ],
  });
}

export type AnswerResult =
  | { ok: true; address: string; port: number }
  | { ok: false; error: string };

/** Where to send our audio, from the callee's SDP answer. */
export function readAnswer(sdp: string | undefined): AnswerResult {
  if (!sdp) return { ok: false, error: 'the answer carries no SDP' };
  const session = sdpTransform.parse(sdp);
  const audio = session.media.find((m) => m.type === 'audio' && m.port !== 0);
  if (!audio) return { ok: false, error: 'the answer has no active audio stream' };
  const payloads = String(audio.payloads ?? '').split(/\s+/);
  if (!payloads.includes('0')) return { ok: false, error: 'the answer does not accept PCMU' };
  const address = audio.connection?.ip ?? session.connection?.ip;
  if (!address) return { ok: false, error: 'the answer has no connection address' };
  return { ok: true, address, port: audio.port };
}
