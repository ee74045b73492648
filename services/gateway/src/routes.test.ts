import { describe, expect, it } from 'vitest';
import { loggablePath, matchRoute, ROUTES, takesLargeBody } from './routes.js';

describe('matchRoute', () => {
  it.each([
    ['/v1/sms/send', 'sms'],
    ['/v1/batches', 'batch'],
    ['/v1/batches/abc/poll_with_delta', 'batch'],
    ['/v1/oauth/token', 'batch'],
    ['/v1/health/batches', 'batch'],
    ['/replypath/v1/sendsms', 'replypath'],
    ['/v1/replypath/sendsms/0701234567/hello', 'replypath-legacy'],
    ['/rcs/v1/messages', 'rcs'],
    ['/rcs/v1/rbm/events', 'rcs'],
    ['/v1/webhooks/3f1c/test', 'rcs'],
    ['/txt2voice/v1/messages', 'voice'],
    ['/txt2voice/v1/sendtts', 'voice'],
    ['/v1/numbers/46701234567/live-status', 'numbers'],
    ['/v1/lookup/sweden/46701234567', 'lookup-legacy'],
    ['/v1/callbacks/signing-secret/rotate', 'notifier'],
    // Empty segments do not count: the service owning the prefix answers in its own format.
    ['/v1//numbers/46701234567', 'numbers'],
    ['//v1/numbers//46701234567', 'numbers'],
    ['/v1/sms//send', 'sms'],
  ])('when the path is %s, then %s owns it', (path, service) => {
    expect(matchRoute(path)?.service).toBe(service);
  });

  it.each([
    '/',
    '/v1',
    '/v1/smsx',
    '/v1/health',
    '/v1/health/batchesx',
    '/replypath',
    '/internal/v1/accounts',
    '/admin',
    '/V1/SMS/send',
  ])('when the path is %s, then no route owns it', (path) => {
    expect(matchRoute(path)).toBeUndefined();
  });

  it('when two prefixes could match, then the longer one wins', () => {
    // No overlap today; the rule matters the day a more specific prefix is added.
    const prefixes = ROUTES.map((route) => route.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });
});

describe('takesLargeBody', () => {
  it('when the request is batch create, then the large limit applies', () => {
    expect(takesLargeBody('POST', '/v1/batches')).toBe(true);
    expect(takesLargeBody('POST', '/v1/batches/')).toBe(true);
  });

  it('when the request is anything else, then it does not', () => {
    expect(takesLargeBody('GET', '/v1/batches')).toBe(false);
    expect(takesLargeBody('POST', '/v1/batches/b1/cancel')).toBe(false);
    expect(takesLargeBody('POST', '/v1/sms/send')).toBe(false);
  });
});

describe('loggablePath', () => {
  const route = (path: string) => matchRoute(path);

  it('when a route carries no personal data in its path, then the path is logged as is', () => {
    expect(loggablePath('/v1/batches/b1/poll', route('/v1/batches/b1/poll'))).toBe(
      '/v1/batches/b1/poll',
    );
  });

  it('when the path holds a phone number, then it is masked and the view kept', () => {
    const path = '/v1/numbers/+46701234567/porting-history';
    expect(loggablePath(path, route(path))).toBe('/v1/numbers/:redacted/porting-history');
  });

  it('when the legacy reply-path carries recipient and text in the path, then both are masked', () => {
    const path = '/v1/replypath/sendsms/0701234567/hej%20d%C3%A5';
    expect(loggablePath(path, route(path))).toBe('/v1/replypath/sendsms/:redacted/:redacted');
  });

  it('when the path climbs out of its interface with .., then nothing after the prefix is shown', () => {
    const path = '/v1/numbers/+46701234567/../../numbers/+46701234567';
    expect(loggablePath(path, route(path))).not.toContain('46701234567');
  });

  it('when the path has empty segments, then the phone number is still masked', () => {
    const path = '/v1//numbers//+46701234567/porting-history';
    expect(loggablePath(path, route(path))).toBe('/v1/numbers/:redacted/porting-history');
  });

  it('when the legacy lookup carries an msisdn, then only the detail level is kept', () => {
    const path = '/v1/lookup/advanced/46701234567';
    expect(loggablePath(path, route(path))).toBe('/v1/lookup/advanced/:redacted');
  });

  it('when RCS paths are logged, then their words stay and phone numbers are masked', () => {
    for (const path of ['/rcs/v1/rbm/events', '/rcs/v1/capabilities', '/rcs/v1/messages']) {
      expect(loggablePath(path, route(path))).toBe(path);
    }
    const tester = '/rcs/v1/testers/+46701234567';
    expect(loggablePath(tester, route(tester))).toBe('/rcs/v1/testers/:redacted');
  });

  it('when no route matched, then the path is logged as is', () => {
    expect(loggablePath('/nowhere', undefined)).toBe('/nowhere');
  });
});
