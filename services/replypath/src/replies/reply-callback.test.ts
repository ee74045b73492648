import { describe, expect, it } from 'vitest';
import { replyCallbackRequest } from './reply-callback.js';

const reply = {
  replyId: 'r-1',
  accountId: 'a-1',
  from: '+46701234567',
  inResponseTo: '5f0c3c1e-8d0a-4c55-9a57-0d6f1a7e2b11',
  text: 'Ja & nej?',
};
const giveUpAt = new Date('2026-11-27T08:00:00.000Z');

describe('replyCallbackRequest', () => {
  it('when the account calls back by GET, then Msg and InResponseTo go in the query, with no body', () => {
    const request = replyCallbackRequest(
      { replyPathUrl: 'https://example.com/in?k=1', replyPathMethod: 'GET' },
      reply,
      giveUpAt,
    );
    expect(request).toEqual({
      callbackId: 'replypath-reply-r-1',
      accountId: 'a-1',
      url: 'https://example.com/in?k=1',
      method: 'GET',
      query: { Msg: 'Ja & nej?', InResponseTo: reply.inResponseTo },
      giveUpAt: '2026-11-27T08:00:00.000Z',
      origin: { service: 'replypath', kind: 'reply' },
    });
  });

  it('when the account calls back by POST, then From, InResponseTo and Msg are the JSON body', () => {
    const request = replyCallbackRequest(
      { replyPathUrl: 'https://example.com/in', replyPathMethod: 'POST' },
      reply,
      giveUpAt,
    );
    expect(request).toMatchObject({
      method: 'POST',
      body: { From: '+46701234567', InResponseTo: reply.inResponseTo, Msg: 'Ja & nej?' },
      giveUpAt: '2026-11-27T08:00:00.000Z',
    });
    expect(request).not.toHaveProperty('query');
  });

  it.each([
    ['no URL', null],
    ['no scheme', 'example.com/in'],
    ['not http', 'ftp://example.com/in'],
    ['credentials in it', 'https://user:pw@example.com/in'],
  ])('when the account has %s, then there is nothing to forward to', (_case, replyPathUrl) => {
    expect(
      replyCallbackRequest({ replyPathUrl, replyPathMethod: 'POST' }, reply, giveUpAt),
    ).toBeNull();
  });

  it('when the account is unknown, then there is nothing to forward to', () => {
    expect(replyCallbackRequest(undefined, reply, giveUpAt)).toBeNull();
  });
});
