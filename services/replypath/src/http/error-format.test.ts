import {
  MalformedRequestError,
  PayloadTooLargeError,
  RateLimitedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '@msg/http';
import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { replypathErrorFormat } from './error-format.js';

const req = {} as Request;

describe('replypathErrorFormat (spec 7.2)', () => {
  it('when several fields are refused, then details is the first one as an object and message names all', () => {
    const err = new ValidationError('body.To: a; body.Msg: b', [
      { loc: ['body', 'To'], msg: 'a', type: 'missing' },
      { loc: ['body', 'Msg'], msg: 'b', type: 'minLength' },
    ]);
    expect(replypathErrorFormat(err, req)).toMatchObject({
      status: 400,
      body: {
        code: 'VALIDATION_ERROR',
        message: 'body.To: a; body.Msg: b',
        details: { loc: ['body', 'To'], msg: 'a', type: 'missing' },
      },
    });
  });

  it.each([
    [new PayloadTooLargeError(), 'maxSize'],
    [new UnsupportedMediaTypeError('not json'), 'mediaType'],
    [new MalformedRequestError('body is not valid JSON'), 'malformed'],
  ])(
    'when the request bytes are refused (%s), then 400 VALIDATION_ERROR with type %s',
    (err, type) => {
      const rendered = replypathErrorFormat(err, req);
      expect(rendered.status).toBe(400);
      expect(rendered.body).toEqual({
        code: 'VALIDATION_ERROR',
        message: err.message,
        details: { loc: ['body'], msg: err.message, type },
      });
    },
  );

  it('when an error has no details, then the body has none', () => {
    expect(replypathErrorFormat(new RateLimitedError(3), req)).toEqual({
      status: 429,
      body: { code: 'RATE_LIMITED', message: 'Rate limit exceeded' },
    });
  });
});
