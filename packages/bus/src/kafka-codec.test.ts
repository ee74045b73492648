import { makeEvent } from '@msg/contracts';
import { describe, expect, it } from 'vitest';
import { decodeEnvelope, decodeHeaders, encodeMessage } from './kafka-codec.js';

describe('kafka codec', () => {
  it('when a message is encoded and decoded, then the envelope comes back equal', () => {
    const value = makeEvent('sms.accepted', { id: 1 }, { accountId: 'a1' });
    const encoded = encodeMessage({ key: 'a1', value, headers: { h: 'v' } });
    expect(encoded.key).toBe('a1');
    expect(decodeEnvelope(Buffer.from(String(encoded.value)))).toEqual(value);
  });

  it('when the value is not an envelope, then decoding fails as undecodable', () => {
    expect(() => decodeEnvelope(null)).toThrow('no value');
    expect(() => decodeEnvelope(Buffer.from('{'))).toThrow('not JSON');
    expect(() => decodeEnvelope(Buffer.from('{"id":1}'))).toThrow('not an event envelope');
  });

  it('when headers arrive as buffers or lists, then they become strings', () => {
    expect(decodeHeaders({ a: Buffer.from('x'), b: ['y', 'z'], c: 'w', d: undefined })).toEqual({
      a: 'x',
      b: 'y',
      c: 'w',
    });
  });
});
