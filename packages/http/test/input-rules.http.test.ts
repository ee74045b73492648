import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { messagesService, sendRaw } from './support.js';

// The input rules every JSON and form body follows (README "Input rules"), through a whole
// service: a 400 in the interface's format naming the field, never a 500 or a silent U+FFFD.
describe('sendMessage (POST /v1/messages): input rules', () => {
  const { app, received, logs } = messagesService();
  const post = (raw: string | Buffer, type = 'application/json') =>
    request(app).post('/v1/messages').set('Content-Type', type).send(raw);

  it('when message holds an escaped lone surrogate, then 400 VALIDATION_ERROR names body.message', async () => {
    const res = await post('{"to":"+46701234567","message":"\\ud800"}');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/^body\.message: .*lone surrogate/),
      details: [{ loc: ['body', 'message'], type: 'text', msg: expect.any(String) }],
    });
  });

  it('when a field holds a NUL, then 400 names it', async () => {
    const res = await post('{"to":"+46701234567\\u0000","message":"hi"}');
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { loc: ['body', 'to'], type: 'text', msg: 'must not contain the NUL character (U+0000)' },
    ]);
  });

  it('when a key appears twice, then 400 names it and the handler never runs', async () => {
    const before = received.length;
    const res = await post('{"to":"+46701234567","message":"a","message":"b"}');
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { loc: ['body', 'message'], type: 'duplicate', msg: 'appears more than once' },
    ]);
    expect(received.length).toBe(before);
  });

  it('when the body nests 40,000 objects (240 KB), then 400 names depth and the handler never runs', async () => {
    const before = received.length;
    const res = await post(`${'{"a":'.repeat(40_000)}1${'}'.repeat(40_000)}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [
        {
          loc: ['body', ...Array(32).fill('a')],
          type: 'depth',
          msg: 'must not nest objects and arrays more than 32 levels deep',
        },
      ],
    });
    expect(received.length).toBe(before);
  });

  it('when the bytes are not UTF-8, then 400 MALFORMED_REQUEST, not a silent U+FFFD', async () => {
    const body = Buffer.concat([
      Buffer.from('{"to":"+46701234567","message":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}'),
    ]);
    const res = await sendRaw(app, {
      path: '/v1/messages',
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'MALFORMED_REQUEST',
      message: 'body is not valid UTF-8',
    });
  });

  it('when a form field holds a NUL, then 400 names it', async () => {
    const res = await post('to=%2B46701234567&message=a%00b', 'application/x-www-form-urlencoded');
    expect(res.status).toBe(400);
    expect(res.body.details[0].loc).toEqual(['body', 'message']);
  });

  it('when JSON.parse fails, then the body says so in our words and the log keeps its words', async () => {
    const res = await post('{"to":"+46701234567","message":"secret text",');
    expect(res.body).toEqual({ code: 'MALFORMED_REQUEST', message: 'body is not valid JSON' });
    expect(JSON.stringify(res.body)).not.toMatch(/secret|position|Unexpected/);
    expect(logs.lines.some((line) => typeof line.reason === 'string' && line.reason !== '')).toBe(
      true,
    );
  });

  it('when a query parameter or a path segment holds a NUL, then 400 names where', async () => {
    const query = await request(app).get('/v1/messages?limit=1%00');
    expect(query.status).toBe(400);
    expect(query.body.details).toEqual([
      { loc: ['query', 'limit'], type: 'text', msg: 'must not contain the NUL character (U+0000)' },
    ]);
    const path = await request(app).get('/v1/messages/m%00x');
    expect(path.status).toBe(400);
    expect(path.body.details[0].loc).toEqual(['path']);
  });

  it('when a query parameter is not percent-encoded UTF-8, then 400 names it instead of a U+FFFD', async () => {
    for (const value of ['%ED%A0%80', '%FF', '%C0%AF', '%zz', '%']) {
      const res = await request(app).get(`/v1/messages?limit=${value}`);
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([
        { loc: ['query', 'limit'], type: 'encoding', msg: 'must be percent-encoded UTF-8 text' },
      ]);
    }
    const named = await request(app).get('/v1/messages?lim%FFit=1');
    expect(named.status).toBe(400);
    expect(named.body.details[0].loc).toEqual(['query', 'lim%FFit']);
    // Well-formed escapes pass this rule (whatever the operation then says of the value).
    const fine = await request(app).get('/v1/messages?limit=%C3%A5+b');
    expect(fine.body.details?.[0]?.type).not.toBe('encoding');
  });

  it('when a path segment is not percent-encoded UTF-8, then 400 says so in the same words', async () => {
    for (const value of ['%ED%A0%80', '%FF', '%zz']) {
      const res = await request(app).get(`/v1/messages/m${value}`);
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([
        { loc: ['path'], type: 'encoding', msg: 'must be percent-encoded UTF-8 text' },
      ]);
    }
  });
});
