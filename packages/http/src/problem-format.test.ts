import { describe, expect, it } from 'vitest';
import {
  InternalError,
  NotFoundError,
  RateLimitedError,
  UpstreamUnavailableError,
} from './errors.js';
import { problemErrorFormat, problemSlug } from './problem-format.js';

const req = { path: '/v1/numbers/46701234567' };
const format = problemErrorFormat('https://problems.example/base/');

describe('problemErrorFormat', () => {
  it('when an error is rendered, then it is RFC 9457 with the type under the base and the path as instance', () => {
    const rendered = format(new NotFoundError('No operation at /x'), req);
    expect(rendered).toEqual({
      status: 404,
      contentType: 'application/problem+json; charset=utf-8',
      body: {
        type: 'https://problems.example/base/not-found',
        title: 'Not Found',
        status: 404,
        detail: 'No operation at /x',
        instance: '/v1/numbers/46701234567',
      },
    });
  });

  it('when the error is internal, then the detail asks to contact support with path and time', () => {
    const { body } = format(new InternalError('id-1'), req);
    expect(body).toMatchObject({ type: 'https://problems.example/base/internal-error' });
    expect(JSON.stringify(body)).toMatch(
      /contact support.*\/v1\/numbers\/46701234567.*\d{4}-\d{2}-\d{2}T/,
    );
  });

  it.each([
    [new RateLimitedError(1).code, 'rate-limited'],
    [new UpstreamUnavailableError().code, 'service-unavailable'],
    ['QUOTA_EXCEEDED', 'quota-exceeded'],
    ['PROVIDER_UNAVAILABLE', 'provider-unavailable'],
    ['METHOD_NOT_ALLOWED', 'method-not-allowed'],
  ])('when the code is %s, then the slug is %s', (code, slug) => {
    expect(problemSlug(code)).toBe(slug);
  });
});
