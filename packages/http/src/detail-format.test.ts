import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { detailErrorFormat } from './detail-format.js';
import {
  MalformedRequestError,
  NotFoundError,
  PayloadTooLargeError,
  ValidationError,
} from './errors.js';

const req = {} as Request;

describe('detailErrorFormat', () => {
  it('when validation names fields, then 422 with every detail as it is', () => {
    const details = [
      { loc: ['body', 'to'], msg: 'must match pattern', type: 'pattern' },
      { loc: ['body', 'text'], msg: 'must NOT have fewer than 1 characters', type: 'minLength' },
    ];
    expect(detailErrorFormat(new ValidationError('invalid', details), req)).toEqual({
      status: 422,
      body: { detail: details },
    });
  });

  it('when the JSON is malformed, then 422 json_invalid at the body', () => {
    expect(detailErrorFormat(new MalformedRequestError('Unexpected end'), req)).toEqual({
      status: 422,
      body: { detail: [{ loc: ['body'], msg: 'Unexpected end', type: 'json_invalid' }] },
    });
  });

  it('when the error is about the request as a whole, then its own status and its code as type', () => {
    expect(detailErrorFormat(new NotFoundError('No such message'), req)).toEqual({
      status: 404,
      body: { detail: [{ loc: [], msg: 'No such message', type: 'not_found' }] },
    });
    expect(detailErrorFormat(new PayloadTooLargeError(), req).body).toEqual({
      detail: [{ loc: ['body'], msg: 'Request body too large', type: 'payload_too_large' }],
    });
  });
});
