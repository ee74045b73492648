import type { RbmUserEvent } from '@msg/rbm';
import { describe, expect, it } from 'vitest';
import { pushEventId, pushIdOf, sendTimeOf, userMessageEvent } from './event-mapping.js';

const base = { senderPhoneNumber: '+46700000001', agentId: 'a', messageId: 'MsUser1' };

describe('pushEventId', () => {
  it('when the same push id is given twice, then the same evt_ + 32 hex; another push or the second event of a push, another id', () => {
    const id = pushEventId('push-1');
    expect(id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(pushEventId('push-1')).toBe(id);
    expect(pushEventId('push-2')).not.toBe(id);
    expect(pushEventId('push-1', 'rcs.sub.unsubscribed')).not.toBe(id);
  });
});

describe('pushIdOf', () => {
  it("when the envelope has a message id, then it; else RBM's event id; else none", () => {
    const status = { ...base, kind: 'status', eventType: 'READ' } as const;
    expect(pushIdOf({ ...status, pushMessageId: 'p', eventId: 'e' })).toBe('p');
    expect(pushIdOf({ ...status, eventId: 'e' })).toBe('event:e');
    expect(pushIdOf(status)).toBeUndefined();
  });
});

describe('sendTimeOf', () => {
  it("when RBM's sendTime has nanoseconds, then RFC 3339 with milliseconds; unreadable, the publish time, then now", () => {
    const now = new Date('2026-01-01T00:00:00.000Z');
    const event = { ...base, kind: 'text', text: 'x' } as const;
    expect(sendTimeOf({ ...event, sendTime: '2026-11-24T10:00:00.123456789Z' }, now)).toBe(
      '2026-11-24T10:00:00.123Z',
    );
    expect(
      sendTimeOf({ ...event, sendTime: 'garbage', publishTime: '2026-11-24T10:00:01Z' }, now),
    ).toBe('2026-11-24T10:00:01.000Z');
    expect(sendTimeOf(event, now)).toBe(now.toISOString());
  });
});

describe('userMessageEvent', () => {
  it('when a file has no thumbnail, then user_file has the payload only; a thumbnail has no file name (2.5)', () => {
    const file: RbmUserEvent = {
      ...base,
      kind: 'file',
      file: { mimeType: 'image/png', fileSizeBytes: 1, fileUri: 'https://x/f', fileName: 'f.png' },
    };
    expect(userMessageEvent(file)?.body.user_file).toEqual({
      payload: {
        mime_type: 'image/png',
        file_size_bytes: 1,
        file_uri: 'https://x/f',
        file_name: 'f.png',
      },
    });
    const withThumb = userMessageEvent({
      ...file,
      thumbnail: { mimeType: 'image/jpeg', fileUri: 'https://x/t', fileName: 't.jpg' },
    } as RbmUserEvent);
    expect(withThumb?.body.user_file).toEqual({
      payload: expect.any(Object),
      thumbnail: { mime_type: 'image/jpeg', file_uri: 'https://x/t' },
    });
  });

  it('when a kind has no event in 6.3 (location, suggestion of unknown type), then none', () => {
    expect(
      userMessageEvent({ ...base, kind: 'location', latitude: 1, longitude: 2 }),
    ).toBeUndefined();
    expect(
      userMessageEvent({
        ...base,
        kind: 'suggestion',
        suggestionType: 'UNKNOWN',
        text: 't',
        postbackData: 'p',
      }),
    ).toBeUndefined();
  });
});
