import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { messagesService, sendRaw } from './support.js';

const valid = { to: '+46701234567', message: 'hello' };

describe('sendMessage (POST /v1/messages): bodies', () => {
  const { app, received } = messagesService();

  it('when the body is valid JSON that matches the document, then the handler gets it as sent', async () => {
    const res = await request(app)
      .post('/v1/messages')
      .send({ ...valid, count: 2 });
    expect(res.status).toBe(202);
    expect(received.at(-1)).toEqual({ ...valid, count: 2 });
  });

  it('when the body is not valid JSON, then 400 MALFORMED_REQUEST says so', async () => {
    const res = await request(app)
      .post('/v1/messages')
      .set('Content-Type', 'application/json')
      .send('{"to": ');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('MALFORMED_REQUEST');
    // JSON.parse's own words (with a fragment of the body) stay in the log.
    expect(res.body.message).toBe('body is not valid JSON');
  });

  it('when the Content-Type is not one the operation lists, then 415 names the ones it takes', async () => {
    const res = await request(app)
      .post('/v1/messages')
      .set('Content-Type', 'text/plain')
      .send('hello');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message:
        'Content-Type text/plain is not supported here; send application/json or application/x-www-form-urlencoded',
    });
  });

  it('when a field has the wrong type, then 400 names the field and the rule', async () => {
    const res = await request(app)
      .post('/v1/messages')
      .send({ ...valid, to: 46701234567 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'body.to: must be string',
      details: [{ loc: ['body', 'to'], msg: 'must be string', type: 'type' }],
    });
  });

  it('when a string is too short, then 400 names the field and the minLength rule', async () => {
    const res = await request(app)
      .post('/v1/messages')
      .send({ ...valid, to: '+4670' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('body.to: must NOT have fewer than 10 characters');
    expect(res.body.details).toEqual([
      { loc: ['body', 'to'], msg: 'must NOT have fewer than 10 characters', type: 'minLength' },
    ]);
  });

  it('when a required field is missing, then 400 with type missing for that field', async () => {
    const res = await request(app).post('/v1/messages').send({ to: valid.to });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { loc: ['body', 'message'], msg: 'is required', type: 'missing' },
    ]);
  });

  it('when the body has a field the document does not declare, then 400 names that field', async () => {
    const res = await request(app)
      .post('/v1/messages')
      .send({ ...valid, priority: 'high' });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { loc: ['body', 'priority'], msg: 'is not a known field', type: 'additionalProperties' },
    ]);
  });

  it('when several fields are wrong, then every one is reported at once', async () => {
    const res = await request(app)
      .post('/v1/messages')
      .send({ to: 'short', from: 'a sender id that is long' });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { loc: string[] }) => d.loc.join('.')).sort()).toEqual([
      'body.from',
      'body.message',
      'body.to',
    ]);
  });

  it('when a JSON number arrives as a string, then it is not coerced: 400', async () => {
    const res = await request(app)
      .post('/v1/messages')
      .send({ ...valid, count: '2' });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { loc: ['body', 'count'], msg: 'must be integer', type: 'type' },
    ]);
  });

  it('when the body is a form, then it is parsed and validated like JSON', async () => {
    const ok = await request(app).post('/v1/messages').type('form').send(valid);
    expect(ok.status).toBe(202);
    expect(received.at(-1)).toEqual(valid);
    const bad = await request(app).post('/v1/messages').type('form').send({ to: valid.to });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([
      { loc: ['body', 'message'], msg: 'is required', type: 'missing' },
    ]);
  });

  it('when there is no body at all, then 400 says the body is required', async () => {
    const res = await request(app).post('/v1/messages');
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ loc: ['body'], msg: 'is required', type: 'missing' }]);
  });

  it('when the JSON body is gzip-compressed, then it is inflated and accepted', async () => {
    const res = await sendRaw(app, {
      path: '/v1/messages',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: gzipSync(JSON.stringify(valid)),
    });
    expect(res.status).toBe(202);
    expect(received.at(-1)).toEqual(valid);
  });

  it('when the Content-Encoding is not supported, then 415 names it', async () => {
    const res = await request(app)
      .post('/v1/messages')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'compress')
      .send(JSON.stringify(valid));
    expect(res.status).toBe(415);
    expect(res.body.message).toMatch(/^Content-Encoding compress is not supported/);
  });

  it('when the body is not the gzip its Content-Encoding claims, then 400 MALFORMED_REQUEST', async () => {
    const res = await request(app)
      .post('/v1/messages')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send(JSON.stringify(valid));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('MALFORMED_REQUEST');
    expect(res.body.message).toBe('body is not valid gzip data');
  });

  it('when the charset is not UTF, then 415', async () => {
    const res = await request(app)
      .post('/v1/messages')
      .set('Content-Type', 'application/json; charset=latin1')
      .send(JSON.stringify(valid));
    expect(res.status).toBe(415);
    expect(res.body.message).toBe('charset latin1 is not supported; use utf-8');
  });
});

describe('body size limit', () => {
  const { app } = messagesService({ bodyLimit: '1kb' });

  it('when the body is larger than the limit, then 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await request(app)
      .post('/v1/messages')
      .send({ ...valid, message: 'x'.repeat(2048) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'Request body is larger than the limit of 1024 bytes',
    });
  });

  it('when a small gzip body inflates beyond the limit, then 413 too', async () => {
    const res = await sendRaw(app, {
      path: '/v1/messages',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ ...valid, message: 'x'.repeat(100_000) })),
    });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });
});

describe('listMessages and getMessage: parameters', () => {
  const { app } = messagesService();

  it('when a query parameter is a number in a string, then the handler gets a number', async () => {
    const res = await request(app).get('/v1/messages?limit=5');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ limit: 5, items: [] });
  });

  it('when a query parameter is absent, then its documented default applies', async () => {
    const res = await request(app).get('/v1/messages');
    expect(res.body.limit).toBe(10);
  });

  it('when a query parameter breaks its schema, then 400 names it in query', async () => {
    const res = await request(app).get('/v1/messages?limit=abc');
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { loc: ['query', 'limit'], msg: 'must be integer', type: 'type' },
    ]);
    const tooBig = await request(app).get('/v1/messages?limit=1000');
    expect(tooBig.body.details).toEqual([
      { loc: ['query', 'limit'], msg: 'must be <= 100', type: 'maximum' },
    ]);
  });

  it.each(['0x10', '0b11', '1e3', '', 'Infinity', '1e400', '9'.repeat(310), ' 5', '5.0'])(
    'when an integer query parameter is %j, then 400 names it as not an integer',
    async (value) => {
      const res = await request(app).get(`/v1/messages?limit=${encodeURIComponent(value)}`);
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([
        { loc: ['query', 'limit'], msg: 'must be integer', type: 'type' },
      ]);
    },
  );

  it('when an integer query parameter is plain decimal digits, then it is accepted', async () => {
    expect((await request(app).get('/v1/messages?limit=05')).status).toBe(200);
  });

  it('when a query parameter is not in the document, then 400 unknownParameter', async () => {
    const res = await request(app).get('/v1/messages?limit=5&pass=secret');
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { loc: ['query', 'pass'], msg: 'is not a known query parameter', type: 'unknownParameter' },
    ]);
  });

  it('when a path parameter breaks its pattern, then 400 names it in path', async () => {
    const res = await request(app).get('/v1/messages/NOT_OK');
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { loc: ['path', 'id'], msg: 'must match pattern "^[a-z0-9-]{3,40}$"', type: 'pattern' },
    ]);
    expect((await request(app).get('/v1/messages/m-123')).body).toEqual({ id: 'm-123' });
  });
});

describe('routing', () => {
  const { app } = messagesService();

  it('when the path is in no document, then 404 NOT_FOUND', async () => {
    const res = await request(app).get('/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });

  it('when the method is not documented for the path, then 405 with Allow', async () => {
    const res = await request(app).delete('/v1/messages');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, POST');
    expect(res.body.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('when the operation is documented but has no handler, then 501 NOT_IMPLEMENTED', async () => {
    const res = await request(app).get('/v1/not-yet');
    expect(res.status).toBe(501);
    expect(res.body.code).toBe('NOT_IMPLEMENTED');
  });
});
