import { randomInt } from 'node:crypto';
import { isIPv6 } from 'node:net';
import sdpTransform from 'sdp-transform';

export interface MediaTarget {
  address: string;
  port: number;
}

/**
 * Where the caller wants PCMU audio: the first active audio stream offering payload type 0 and
 * its connection address (media-level c= over session-level). Undefined when there is none.
 */
export function pcmuTarget(offer: string | undefined): MediaTarget | undefined {
  if (!offer) return undefined;
  const session = sdpTransform.parse(offer);
  for (const media of session.media ?? []) {
    const payloads = String(media.payloads ?? '').split(/\s+/);
    if (media.type !== 'audio' || media.port <= 0 || !payloads.includes('0')) continue;
    const address = media.connection?.ip ?? session.connection?.ip;
    if (address) return { address, port: media.port };
  }
  return undefined;
}

/** Our answer: PCMU/8000 only, 20 ms packets, both directions. */
export function pcmuAnswer(host: string, rtpPort: number): string {
  const ipVer = isIPv6(host) ? 6 : 4;
  return sdpTransform.write({
    version: 0,
    origin: {
      username: 'sip-callee',
      sessionId: randomInt(1, 2 ** 31),
      sessionVersion: 1,
      netType: 'IN',
      ipVer,
      address: host,
    },
    name: 'sip-callee',
    connection: { version: ipVer, ip: host },
    timing: { start: 0, stop: 0 },
    media: [
      {
        type: 'audio',
        port: rtpPort,
        protocol: 'RTP/AVP',
        payloads: '0',
        rtp: [{ payload: 0, codec: 'PCMU', rate: 8000 }],
        fmtp: [],
        ptime: 20,
        direction: 'sendrecv',
      },
    ],
  });
}
