import { describe, expect, it } from 'vitest';
import { expiryOf } from '../messages/message-store.js';
import { fallbackSmsId } from './sms-fallback.js';

describe('fallbackSmsId', () => {
  it('when derived twice from one message, then the same RFC 9562 version 8 UUID; another message, another id', () => {
    const id = fallbackSmsId('5f0c7a1e-2b7d-4c61-9d8e-0a1b2c3d4e5f');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(fallbackSmsId('5f0c7a1e-2b7d-4c61-9d8e-0a1b2c3d4e5f')).toBe(id);
    expect(fallbackSmsId('5f0c7a1e-2b7d-4c61-9d8e-0a1b2c3d4e60')).not.toBe(id);
  });
});

describe('expiryOf', () => {
  const at = new Date('2026-11-24T12:00:00.000Z');
  const fallback = { sender: 'Acme', text: 'Hi' };

  it('when ttl is given, then it wins over the fallback TTL', () => {
    expect(expiryOf({ ttlSeconds: 60, smsFallback: fallback }, at, 600)).toEqual(
      new Date('2026-11-24T12:01:00.000Z'),
    );
  });

  it('when only a fallback is given, then the fallback TTL applies', () => {
    expect(expiryOf({ ttlSeconds: null, smsFallback: fallback }, at, 600)).toEqual(
      new Date('2026-11-24T12:10:00.000Z'),
    );
  });

  it('when neither is given, then the message never expires', () => {
    expect(expiryOf({ ttlSeconds: null, smsFallback: null }, at, 600)).toBeNull();
  });
});
