import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { UpstreamUnavailableError, ValidationError } from './errors.js';
import { formFailure, formTextErrorFormat } from './form-text-format.js';

const req = {} as Request;

describe('formTextErrorFormat', () => {
  it('when a parameter breaks a rule, then 400 request=false naming it', () => {
    const err = ValidationError.field(
      ['query', 'Voice'],
      'additionalProperties',
      'unknown parameter',
    );
    expect(formTextErrorFormat(err, req)).toEqual({
      status: 400,
      body: 'request=false&error=Voice: unknown parameter',
      contentType: 'application/x-www-form-urlencoded',
    });
  });

  it('when the error is not about input, then its own status', () => {
    expect(formTextErrorFormat(new UpstreamUnavailableError('busy'), req).status).toBe(503);
  });
});

describe('formFailure', () => {
  it('when the message has spaces and a colon, then it is sent exactly so', () => {
    expect(formFailure('Unsupported language: XX')).toBe(
      'request=false&error=Unsupported language: XX',
    );
  });

  it('when the message has form delimiters, then they are encoded and a form parser reads it back', () => {
    const body = formFailure('a&b=c+d%\n');
    expect(new URLSearchParams(body).get('error')).toBe('a&b=c+d%\n');
  });
});
