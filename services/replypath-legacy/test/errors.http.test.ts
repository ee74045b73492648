import { gzipSync } from 'node:zlib';
import type { AccountState } from '@msg/contracts';
import { deadUrl } from '@msg/testing';
import { describe, expect, it } from 'vitest';
import { LENGTH_REQUIRED } from '../src/access/length-required.js';
import type { FakeReplypath } from './fake-replypath.js';
import {
  basicHeader,
  SENDSMS,
  startTestLegacy,
  type TestLegacy,
  withFakeReplypath,
} from './support.js';

const SEND = { To: '0701234567', Msg: 'Hello' };
const BAD_REQUEST = '400 Bad Request';

let replypath: FakeReplypath;
let legacy: TestLegacy;
let acct: AccountState;

// A short timeout: one test lets the fake stay silent past it.
withFakeReplypath({ timeout: '500ms' }, (started) => {
  ({ replypath, legacy, acct } = started);
});

/**
 * The replypath service's answer to a To it refuses, as its error format writes it (spec 7.2:
 * `details` one object, the first problem; the message lists them all).
 */
const notSwedish = {
  status: 400,
  body: {
    code: 'VALIDATION_ERROR',
    message: 'body.To: only Swedish recipients are accepted',
    details: {
      loc: ['body', 'To'],
      msg: 'only Swedish recipients are accepted',
      type: 'not_swedish',
    },
  },
};

describe('400 invalid parameter, the description naming the parameter where the caller put it', () => {
  it.each([
    ['query', () => legacy.getQuery(acct, { To: '+4740012345', Msg: 'x' }), 'query.To'],
    ['path', () => legacy.getPath(acct, '%2B4740012345', 'x'), 'path.to'],
    ['body', () => legacy.post(acct, { To: '+4740012345', Msg: 'x' }), 'body.To'],
  ])(
    "when the replypath service refuses To (%s form), then 400 naming %s and the service's rule",
    async (_form, call, where) => {
      replypath.answerNext(notSwedish);
      const res = await call();
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        status: BAD_REQUEST,
        message: `${where}: only Swedish recipients are accepted`,
      });
    },
  );

  it('when the replypath service refuses both fields, then the description names both where the caller put them', async () => {
    replypath.answerNext({
      status: 400,
      body: {
        code: 'VALIDATION_ERROR',
        message:
          'body.To: recipient 2 of 2: not a Swedish number; body.Msg: at most 10 SMS parts: this text needs 11',
        details: {
          loc: ['body', 'To'],
          msg: 'recipient 2 of 2: not a Swedish number',
          type: 'not_swedish',
        },
      },
    });
    const res = await legacy.getPath(acct, '070123%3B4740012', 'long');
    expect(res.body).toEqual({
      status: BAD_REQUEST,
      message:
        'path.to: recipient 2 of 2: not a Swedish number; path.msg: at most 10 SMS parts: this text needs 11',
    });
  });

  it("when the details come as a list (the platform's usual form), then they are read too", async () => {
    replypath.answerNext({
      status: 400,
      body: {
        code: 'VALIDATION_ERROR',
        message: 'body.Msg: must not be empty',
        details: [{ loc: ['body', 'Msg'], msg: 'must not be empty', type: 'empty' }],
      },
    });
    const res = await legacy.getQuery(acct, { To: '0701234567', Msg: ' ' });
    expect(res.body).toEqual({ status: BAD_REQUEST, message: 'query.Msg: must not be empty' });
  });

  it('when the replypath service refuses for another reason (an opted-out recipient), then 400 with its message', async () => {
    replypath.answerNext({
      status: 400,
      body: {
        code: 'RECIPIENT_OPTED_OUT',
        message: 'the recipient has opted out of messages from this account',
      },
    });
    const res = await legacy.post(acct, SEND);
    expect(res.body).toEqual({
      status: BAD_REQUEST,
      message: 'the recipient has opted out of messages from this account',
    });
  });

  it.each([
    [
      'Msg is missing from the query',
      () => legacy.getQuery(acct, { To: '0701234567' }),
      /query\.Msg: is required/,
    ],
    ['To is empty in the query', () => legacy.getQuery(acct, { To: '', Msg: 'x' }), /query\.To/],
    [
      'an unknown query parameter is given',
      () => legacy.getQuery(acct, { ...SEND, DLR: '1' }),
      /query\.DLR: is not a known query parameter/,
    ],
    ['To is missing from the body', () => legacy.post(acct, { Msg: 'x' }), /body\.To: is required/],
    [
      'To is a number in the body',
      () => legacy.post(acct, { To: 701234567, Msg: 'x' }),
      /body\.To: must be string/,
    ],
    [
      'Msg is null in the body',
      () => legacy.post(acct, { To: '0701234567', Msg: null }),
      /body\.Msg: must be string/,
    ],
    [
      'the body has an unknown field',
      () => legacy.post(acct, { ...SEND, VP: 10 }),
      /body\.VP: is not a known field/,
    ],
    ['the body is an array', () => legacy.post(acct, [SEND]), /body: must be object/],
    [
      'the body is not JSON',
      () => legacy.post(acct, '{"To": "0701234567", '),
      /body is not valid JSON/,
    ],
    [
      'the body names a key twice',
      () => legacy.post(acct, '{"To":"0701234567","To":"0709876543","Msg":"x"}'),
      /To/,
    ],
    [
      'Msg holds a lone surrogate',
      () => legacy.post(acct, '{"To":"0701234567","Msg":"\\ud800"}'),
      /Msg/,
    ],
    ['Msg holds NUL', () => legacy.post(acct, { To: '0701234567', Msg: 'a\u0000b' }), /Msg/],
    [
      'the body is not UTF-8',
      () =>
        legacy.post(
          acct,
          Buffer.from([0x7b, 0x22, 0x54, 0x6f, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
        ),
      /./,
    ],
    [
      'a query value is not UTF-8',
      () =>
        legacy.raw(
          `GET ${SENDSMS}?To=0701234567&Msg=%FF HTTP/1.1\r\nHost: t\r\nAuthorization: ${basicHeader(acct)}`,
        ),
      /query\.Msg: must be percent-encoded UTF-8 text/,
    ],
    [
      'To is shorter than 10 characters (spec 8.2)',
      () => legacy.getQuery(acct, { To: '070123', Msg: 'x' }),
      /^query\.To: must NOT have fewer than 10 characters$/,
    ],
    [
      'To is longer than 17 characters',
      () => legacy.getPath(acct, '0701234567%2C0709876543', 'x'),
      /^path\.to: must NOT have more than 17 characters$/,
    ],
    [
      'Msg is longer than 1530 characters',
      () => legacy.post(acct, { To: '0701234567', Msg: 'x'.repeat(1531) }),
      /^body\.Msg: must NOT have more than 1530 characters$/,
    ],
    ['a path segment holds NUL', () => legacy.getPath(acct, '0701234567', 'a%00b'), /path/],
    [
      'a path segment is not percent-encoded UTF-8',
      () => legacy.getPath(acct, '%ED%A0%80', 'x'),
      /^path: must be percent-encoded UTF-8 text$/,
    ],
  ])('when %s, then 400 in this format and nothing is sent', async (_name, call, message) => {
    const res = await call();
    expect(res.status).toBe(400);
    const body =
      'text' in res && typeof res.text === 'string'
        ? JSON.parse(res.text)
        : JSON.parse(String(res.body));
    expect(body.status).toBe(BAD_REQUEST);
    expect(body.message).toMatch(message);
    expect(Object.keys(body).sort()).toEqual(['message', 'status']);
    expect(replypath.seen).toEqual([]);
  });

  it('when the body is larger than the limit, then 400 (not 413) saying so', async () => {
    const res = await legacy.post(acct, { To: '0701234567', Msg: 'x'.repeat(20_000) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: BAD_REQUEST,
      message: expect.stringMatching(/larger than the limit/),
    });
  });

  // Raw requests: superagent does not send a Buffer with Content-Encoding untouched.
  const gzipPost = (body: Buffer) =>
    legacy.raw(
      `POST ${SENDSMS} HTTP/1.1\r\nHost: t\r\nAuthorization: ${basicHeader(acct)}\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${body.length}`,
      body,
    );

  it('when a small gzip body inflates past the limit, then 400 saying so', async () => {
    const bomb = gzipSync(JSON.stringify({ To: '0701234567', Msg: ' '.repeat(1_000_000) }));
    const res = await gzipPost(bomb);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      status: BAD_REQUEST,
      message: expect.stringMatching(/larger than the limit/),
    });
  });

  it('when a body says gzip but is not, then 400 "not valid gzip data"', async () => {
    const res = await gzipPost(Buffer.from(JSON.stringify(SEND)));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      status: BAD_REQUEST,
      message: 'body is not valid gzip data',
    });
  });

  it('when a gzip body is valid, then it is read', async () => {
    const res = await gzipPost(gzipSync(JSON.stringify(SEND)));
    expect(res.status).toBe(200);
  });

  it('when the body is not JSON by its Content-Type, then 400 (not 415) naming the type to send', async () => {
    const res = await legacy.post(acct, {}).set('Content-Type', 'text/plain').send('To=0701234567');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: BAD_REQUEST,
      message: expect.stringMatching(/application\/json/),
    });
  });
});

describe('411 POST without body or without Content-Length', () => {
  const head = () =>
    `POST ${SENDSMS} HTTP/1.1\r\nHost: t\r\nAuthorization: ${basicHeader(acct)}\r\nContent-Type: application/json`;

  it('when a POST has no body and no Content-Length, then 411', async () => {
    const res = await legacy.raw(head());
    expect(res.status).toBe(411);
    expect(JSON.parse(res.body)).toEqual({
      status: '411 Length Required',
      message: LENGTH_REQUIRED.noLength,
    });
    expect(res.headers).toMatch(/deprecation: @1795478400/i);
  });

  it('when a POST says Content-Length: 0, then 411 "POST needs a body"', async () => {
    const res = await legacy.raw(`${head()}\r\nContent-Length: 0`);
    expect(res.status).toBe(411);
    expect(JSON.parse(res.body)).toEqual({
      status: '411 Length Required',
      message: LENGTH_REQUIRED.empty,
    });
  });

  it('when a valid JSON body comes chunked (no Content-Length), then 411 and nothing is sent, though the parser could read it', async () => {
    const json = JSON.stringify(SEND);
    const chunked = `${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`;
    const res = await legacy.raw(`${head()}\r\nTransfer-Encoding: chunked`, chunked);
    expect(res.status).toBe(411);
    expect(JSON.parse(res.body)).toEqual({
      status: '411 Length Required',
      message: LENGTH_REQUIRED.noLength,
    });
    expect(replypath.seen).toEqual([]);
  });

  it('when the same body comes with its Content-Length, then 200', async () => {
    const json = JSON.stringify(SEND);
    const res = await legacy.raw(`${head()}\r\nContent-Length: ${Buffer.byteLength(json)}`, json);
    expect(res.status).toBe(200);
  });

  it('when a POST without body has wrong credentials, then 401 first', async () => {
    const res = await legacy.raw(
      `POST ${SENDSMS} HTTP/1.1\r\nHost: t\r\nAuthorization: ${basicHeader(acct, 'wrong')}`,
    );
    expect(res.status).toBe(401);
  });
});

describe('500 application error', () => {
  it('when the replypath service answers 200 with a body this interface cannot read, then 500 with an error id', async () => {
    replypath.answerNext({ status: 200, body: { results: [{ TransactionId: 42 }] } });
    const res = await legacy.post(acct, SEND);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      status: '500 Internal Server Error',
      message: expect.stringMatching(/^Unexpected error; quote error id [0-9a-f-]{36} to support$/),
    });
    expect(res.headers.deprecation).toBe('@1795478400');
  });
});

describe('503 temporary overload or maintenance', () => {
  it.each([
    [
      'answers 503 (maintenance) with its Retry-After',
      {
        status: 503,
        headers: { 'Retry-After': '30' },
        body: { code: 'SERVICE_UNAVAILABLE', message: 'down' },
      },
      '30',
    ],
    ['answers 500', { status: 500, body: { code: 'INTERNAL_ERROR', message: 'boom' } }, '5'],
    [
      'refuses the internal token (401: a configuration mistake)',
      { status: 401, body: { code: 'UNAUTHORIZED', message: 'bad token' } },
      '5',
    ],
    ['has no such endpoint (404)', { status: 404, body: 'Not Found' }, '5'],
    ['stays silent past the timeout', { status: 200, delayMs: 1500, body: { results: [] } }, '5'],
  ])(
    'when the replypath service %s, then 503 with Retry-After',
    async (_name, answer, retryAfter) => {
      replypath.answerNext(answer);
      const res = await legacy.post(acct, SEND);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe(retryAfter);
      expect(res.body).toEqual({
        status: '503 Service Unavailable',
        message: 'The reply-path service is not available now; try again later',
      });
    },
  );

  it('when the replypath service does not know the account yet (its directory lags), then 503 with Retry-After 1, not a 400 about a parameter the caller never sent', async () => {
    replypath.answerNext({
      status: 400,
      body: {
        code: 'VALIDATION_ERROR',
        message: 'body.accountId: no such account',
        details: { loc: ['body', 'accountId'], msg: 'no such account', type: 'unknown' },
      },
    });
    const res = await legacy.post(acct, SEND);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body.status).toBe('503 Service Unavailable');
  });

  it('when the replypath service is unreachable, then 503', async () => {
    const other = await startTestLegacy(await deadUrl());
    try {
      const account = await other.publishAccount(other.account());
      const res = await other.getQuery(account, SEND);
      expect(res.status).toBe(503);
      expect(res.body.status).toBe('503 Service Unavailable');
    } finally {
      await other.stop();
    }
  }, 60_000);
});

describe('outside the table: HTTP routing', () => {
  it('when the path is unknown, then 404 in this format', async () => {
    const res = await legacy.getPath(acct, 'a', 'b/c');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: '404 Not Found', message: expect.any(String) });
  });

  it('when the method is not one of the interface, then 405 with Allow', async () => {
    const res = await legacy.raw(
      `DELETE ${SENDSMS} HTTP/1.1\r\nHost: t\r\nAuthorization: ${basicHeader(acct)}`,
    );
    expect(res.status).toBe(405);
    expect(res.headers).toMatch(/allow: GET, POST/i);
  });
});
