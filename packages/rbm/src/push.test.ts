import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  answerSetupHandshake,
  decodePush,
  PushFormatError,
  parseSetupHandshake,
  verifyPushSignature,
} from './push.js';

const TOKEN = 'client-token-from-console';

function push(event: unknown) {
  const data = Buffer.from(JSON.stringify(event));
  const raw = JSON.stringify({
    message: {
      data: data.toString('base64'),
      messageId: 'ps-1',
      publishTime: '2026-11-24T09:00:00.000Z',
    },
    subscription: 'projects/rbm-demo/subscriptions/demo',
  });
  // Computed independently of the module under test: HMAC-SHA512 of the decoded data, base64.
  const signature = createHmac('sha512', TOKEN).update(data).digest('base64');
  return { raw, signature };
}

const delivered = {
  senderPhoneNumber: '+447700900123',
  eventType: 'DELIVERED',
  eventId: 'ev-1',
  messageId: 'm-1',
  agentId: 'demo_agent',
  sendTime: '2026-11-24T09:00:00.000Z',
};

describe('verifyPushSignature', () => {
  it('accepts the signature of the decoded data keyed with the client token', () => {
    const { raw, signature } = push(delivered);
    expect(verifyPushSignature(raw, signature, TOKEN)).toBe(true);
    expect(verifyPushSignature(Buffer.from(raw), signature, TOKEN)).toBe(true);
  });

  it('refuses a signature made with another token', () => {
    const { raw, signature } = push(delivered);
    expect(verifyPushSignature(raw, signature, 'other-token')).toBe(false);
  });

  it('refuses a body whose data was altered after signing', () => {
    const { signature } = push(delivered);
    const forged = push({ ...delivered, eventType: 'READ' }).raw;
    expect(verifyPushSignature(forged, signature, TOKEN)).toBe(false);
  });

  it('refuses the HMAC of the raw envelope (the data, decoded, is what is signed)', () => {
    const { raw } = push(delivered);
    const envelopeSignature = createHmac('sha512', TOKEN).update(raw).digest('base64');
    expect(verifyPushSignature(raw, envelopeSignature, TOKEN)).toBe(false);
  });

  it.each([
    ['missing header', undefined],
    ['empty header', ''],
    ['repeated header', ['a', 'b']],
    ['truncated signature', 'abc'],
  ])('refuses a %s without throwing', (_name, header) => {
    const { raw } = push(delivered);
    expect(verifyPushSignature(raw, header as string | undefined, TOKEN)).toBe(false);
  });

  it('refuses a body that is not an RBM envelope without throwing', () => {
    expect(verifyPushSignature('not json', 'x', TOKEN)).toBe(false);
    expect(verifyPushSignature('{"message":{}}', 'x', TOKEN)).toBe(false);
  });
});

describe('decodePush', () => {
  it.each(['DELIVERED', 'READ', 'IS_TYPING', 'SUBSCRIBE', 'UNSUBSCRIBE'])(
    'decodes a %s event',
    (eventType) => {
      const event = decodePush(push({ ...delivered, eventType }).raw);
      expect(event).toEqual({
        kind: 'status',
        eventType,
        senderPhoneNumber: '+447700900123',
        agentId: 'demo_agent',
        messageId: 'm-1',
        eventId: 'ev-1',
        sendTime: '2026-11-24T09:00:00.000Z',
        pushMessageId: 'ps-1',
        publishTime: '2026-11-24T09:00:00.000Z',
      });
    },
  );

  it('decodes a user text, from a raw body or a parsed one', () => {
    const { raw } = push({ senderPhoneNumber: '+447700900123', messageId: 'u-1', text: 'hello' });
    expect(decodePush(raw)).toMatchObject({ kind: 'text', text: 'hello', messageId: 'u-1' });
    expect(decodePush(JSON.parse(raw))).toMatchObject({ kind: 'text', text: 'hello' });
  });

  it('decodes a suggestion response with its type and postback data', () => {
    const { raw } = push({
      senderPhoneNumber: '+447700900123',
      suggestionResponse: { postbackData: 'yes', text: 'Yes', type: 'REPLY' },
    });
    expect(decodePush(raw)).toMatchObject({
      kind: 'suggestion',
      suggestionType: 'REPLY',
      text: 'Yes',
      postbackData: 'yes',
    });
  });

  it('decodes a user file with its payload and thumbnail', () => {
    const { raw } = push({
      senderPhoneNumber: '+447700900123',
      userFile: {
        payload: {
          mimeType: 'image/png',
          fileSizeBytes: 1234,
          fileUri: 'https://f/1',
          fileName: 'a.png',
        },
        thumbnail: { mimeType: 'image/png', fileSizeBytes: '99', fileUri: 'https://f/t' },
      },
    });
    expect(decodePush(raw)).toMatchObject({
      kind: 'file',
      file: {
        mimeType: 'image/png',
        fileSizeBytes: 1234,
        fileUri: 'https://f/1',
        fileName: 'a.png',
      },
      thumbnail: { fileSizeBytes: 99, fileUri: 'https://f/t' },
    });
  });

  it.each(['TTL_EXPIRATION_REVOKED', 'TTL_EXPIRATION_REVOKE_FAILED'])(
    'decodes the server event %s',
    (eventType) => {
      const { raw } = push({
        phoneNumber: '+447700900123',
        messageId: 'm-1',
        agentId: 'demo_agent',
        eventType,
        eventId: 'ev-9',
        sendTime: '2026-11-24T09:00:00.000Z',
      });
      expect(decodePush(raw)).toEqual({
        kind: 'server',
        eventType,
        phoneNumber: '+447700900123',
        messageId: 'm-1',
        agentId: 'demo_agent',
        eventId: 'ev-9',
        sendTime: '2026-11-24T09:00:00.000Z',
        pushMessageId: 'ps-1',
        publishTime: '2026-11-24T09:00:00.000Z',
      });
    },
  );

  it('keeps an unmodelled event whole as kind other', () => {
    const event = { senderPhoneNumber: '+447700900123', eventType: 'SOMETHING_NEW' };
    expect(decodePush(push(event).raw)).toMatchObject({ kind: 'other', raw: event });
  });

  it('throws PushFormatError on a body that is not an RBM push', () => {
    expect(() => decodePush('{}')).toThrow(PushFormatError);
    expect(() => decodePush({ message: { data: Buffer.from('nope').toString('base64') } })).toThrow(
      PushFormatError,
    );
    expect(() => decodePush(push({ text: 'no sender' }).raw)).toThrow(/senderPhoneNumber/);
  });
});

describe('set-up handshake', () => {
  it('recognises {clientToken, secret} and answers 200 with the secret for our token', () => {
    const handshake = parseSetupHandshake(JSON.stringify({ clientToken: TOKEN, secret: 's-42' }));
    expect(handshake).toEqual({ clientToken: TOKEN, secret: 's-42' });
    expect(answerSetupHandshake(handshake ?? { clientToken: '', secret: '' }, TOKEN)).toEqual({
      status: 200,
      body: 's-42',
    });
  });

  it('answers 403 for another token and ignores bodies that are not a handshake', () => {
    expect(answerSetupHandshake({ clientToken: 'nope', secret: 's' }, TOKEN).status).toBe(403);
    expect(parseSetupHandshake(push(delivered).raw)).toBeUndefined();
    expect(parseSetupHandshake('garbage')).toBeUndefined();
  });
});
