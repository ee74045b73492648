import { describe, expect, it } from 'vitest';
import {
  ForbiddenError,
  GatewayTimeoutError,
  InternalError,
  PayloadTooLargeError,
  RateLimitedError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from './errors.js';
import { statusLineErrorFormat } from './status-line-format.js';

const format = statusLineErrorFormat({
  challenge: 'Basic realm="Test"',
  headers: { Deprecation: '@1' },
});

describe('statusLineErrorFormat', () => {
  it('when a validation error is rendered, then the body is the status line and the message, with the extra headers', () => {
    const rendered = format(ValidationError.field(['query', 'To'], 'missing', 'is required'));
    expect(rendered).toEqual({
      status: 400,
      body: { status: '400 Bad Request', message: 'query.To: is required' },
      headers: { Deprecation: '@1' },
    });
  });

  it.each([
    [new PayloadTooLargeError('Request body is larger than 1 kB'), 400, '400 Bad Request'],
    [new UnsupportedMediaTypeError('send application/json'), 400, '400 Bad Request'],
    [new ForbiddenError('no access'), 401, '401 Unauthorized'],
    [new GatewayTimeoutError('no answer'), 503, '503 Service Unavailable'],
  ])('when %s is rendered, then it is folded into the row %s of the table', (err, status, line) => {
    const rendered = format(err);
    expect(rendered.status).toBe(status);
    expect(rendered.body).toEqual({ status: line, message: err.message });
  });

  it('when a folded 403 becomes a 401, then it carries the Basic challenge', () => {
    expect(format(new ForbiddenError()).headers).toEqual({
      Deprecation: '@1',
      'WWW-Authenticate': 'Basic realm="Test"',
    });
  });

  it('when a 401 has its own challenge, then the format adds none', () => {
    const rendered = format(new UnauthorizedError('wrong', 'Basic realm="Own"'));
    expect(rendered.headers).toEqual({ Deprecation: '@1' });
  });

  it('when a 429 or a 500 is rendered, then the status is kept', () => {
    expect(format(new RateLimitedError(3)).body).toEqual({
      status: '429 Too Many Requests',
      message: 'Rate limit exceeded',
    });
    expect(format(new InternalError('e1')).body).toMatchObject({
      status: '500 Internal Server Error',
    });
  });
});
