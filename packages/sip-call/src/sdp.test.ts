import { describe, expect, it } from 'vitest';
import { createOffer, readAnswer } from './sdp.js';

describe('SDP', () => {
  it('when offering, then PCMU/8000 is payload 0 with telephone-event, 20 ms ptime, our address and port', () => {
    const offer = createOffer('127.0.0.1', 40_000);
    expect(offer).toMatch(/^v=0\r\n/);
    expect(offer).toContain('c=IN IP4 127.0.0.1\r\n');
    expect(offer).toContain('m=audio 40000 RTP/AVP 0 101\r\n');
    expect(offer).toContain('a=rtpmap:0 PCMU/8000\r\n');
    expect(offer).toContain('a=rtpmap:101 telephone-event/8000\r\n');
    expect(offer).toContain('a=ptime:20\r\n');
    expect(offer).toContain('a=sendrecv\r\n');
  });

  it('when the answer accepts PCMU, then its media address and port are where audio goes', () => {
    const answer =
      'v=0\r\no=- 1 1 IN IP4 10.0.0.9\r\ns=-\r\nc=IN IP4 10.0.0.9\r\nt=0 0\r\nm=audio 30000 RTP/AVP 0\r\n';
    expect(readAnswer(answer)).toEqual({ ok: true, address: '10.0.0.9', port: 30000 });
  });

  it('when the answer accepts only PCMA or has no audio, then it is refused with the reason', () => {
    const pcma =
      'v=0\r\no=- 1 1 IN IP4 10.0.0.9\r\ns=-\r\nc=IN IP4 10.0.0.9\r\nt=0 0\r\nm=audio 30000 RTP/AVP 8\r\n';
    expect(readAnswer(pcma)).toEqual({ ok: false, error: 'the answer does not accept PCMU' });
    expect(readAnswer(undefined)).toEqual({ ok: false, error: 'the answer carries no SDP' });
  });
});
