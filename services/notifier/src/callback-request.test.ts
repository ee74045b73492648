import { describe, expect, it } from 'vitest';
import { parseCallbackRequest } from './callback-request.js';

const valid = {
  callbackId: 'cb-1',
  accountId: 'acct-1',
  url: 'https://receiver.example/dlr?token=x',
  method: 'POST',
  body: { a: 1 },
  origin: { service: 'sms', kind: 'status' },
};

describe('parseCallbackRequest', () => {
  it('when the payload is a valid request, then it is returned as is', () => {
    expect(parseCallbackRequest(valid)).toEqual({ request: valid });
  });

  it('when fields are wrong, then each is named without echoing values', () => {
    const result = parseCallbackRequest({ ...valid, url: 'file:///etc/passwd', method: 'PUT' });
    expect('problems' in result && result.problems.join('\n')).toMatch(
      /url[\s\S]*method|method[\s\S]*url/,
    );
    expect(JSON.stringify(result)).not.toContain('/etc/passwd');
  });

  it('when giveUpAt is not an ISO time, then it is refused', () => {
    expect(parseCallbackRequest({ ...valid, giveUpAt: 'tomorrow' })).toHaveProperty('problems');
  });
});
