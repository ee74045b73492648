import type { AccountState } from '@msg/contracts';
import { UnauthorizedError } from '@msg/http';
import type { RequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { requireActive, requirePermission, requireScopes } from '../src/guards.js';
import { requireAllowedIp } from '../src/ip-allow-list.js';
import { makeAccount } from './support/accounts.js';
import { createTestApp, whoami } from './support/app.js';

/** Stands in for authenticate(): these tests are about what happens after it. */
const as =
  (account: AccountState): RequestHandler =>
  (req, _res, next) => {
    req.account = account;
    next();
  };

function guarded(account: AccountState | undefined, ...guards: RequestHandler[]) {
  return createTestApp(
    (app) => app.get('/guarded', ...(account ? [as(account)] : []), ...guards, whoami),
    // Only the gateway (here: loopback, where supertest connects from) may set X-Forwarded-For.
    { trustProxy: 'loopback' },
  );
}

describe('requireActive', () => {
  it('when the account is active, then the request passes; when disabled, then 403', async () => {
    const active = await request(guarded(makeAccount(), requireActive())).get('/guarded');
    const disabled = await request(
      guarded(makeAccount({ status: 'disabled' }), requireActive()),
    ).get('/guarded');

    expect(active.status).toBe(200);
    expect(disabled.status).toBe(403);
    expect(disabled.body).toEqual({ code: 'FORBIDDEN', message: 'account disabled' });
  });

  it('when the interface answers inactive accounts with 401, then deny builds that error', async () => {
    const res = await request(
      guarded(
        makeAccount({ status: 'disabled' }),
        requireActive({ deny: (message) => new UnauthorizedError(message) }),
      ),
    ).get('/guarded');

    expect(res.status).toBe(401);
  });

  it('when no authentication ran before the guard, then 401 (fail closed)', async () => {
    const res = await request(guarded(undefined, requireActive(), requirePermission('sms'))).get(
      '/guarded',
    );

    expect(res.status).toBe(401);
  });
});

describe('requirePermission', () => {
  it('when the account has the permission, then 200; when not, then 403 naming it', async () => {
    const voice = makeAccount({ permissions: ['text_to_voice'] });
    const smsOnly = makeAccount({ permissions: ['sms'] });

    const allowed = await request(guarded(voice, requirePermission('text_to_voice'))).get(
      '/guarded',
    );
    const refused = await request(guarded(smsOnly, requirePermission('text_to_voice'))).get(
      '/guarded',
    );

    expect(allowed.status).toBe(200);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("permission 'text_to_voice' not granted");
  });
});

describe('requireScopes', () => {
  it('when every scope is granted, then 200; when one is missing, then 403 naming it', async () => {
    const reader = makeAccount({ numberScopes: ['numbers:read'] });
    const historian = makeAccount({ numberScopes: ['numbers:read', 'numbers:porting-history'] });
    const guard = requireScopes('numbers:read', 'numbers:porting-history');

    const refused = await request(guarded(reader, guard)).get('/guarded');
    const allowed = await request(guarded(historian, guard)).get('/guarded');

    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("scope 'numbers:porting-history' not granted");
    expect(allowed.status).toBe(200);
  });

  it('when porting-history is granted without numbers:read, then the view is still refused', async () => {
    const odd = makeAccount({ numberScopes: ['numbers:porting-history'] });

    const res = await request(
      guarded(odd, requireScopes('numbers:read', 'numbers:porting-history')),
    ).get('/guarded');

    expect(res.status).toBe(403);
  });
});

describe('requireAllowedIp', () => {
  const call = (ipAllowList: string[], forwardedFor: string) =>
    request(guarded(makeAccount({ ipAllowList }), requireAllowedIp()))
      .get('/guarded')
      .set('X-Forwarded-For', forwardedFor);

  it.each([
    ['IPv4 inside a CIDR', ['192.0.2.0/24'], '192.0.2.77', 200],
    ['IPv4 outside the CIDR', ['192.0.2.0/24'], '198.51.100.1', 403],
    ['IPv6 inside a CIDR', ['2001:db8:1::/48'], '2001:db8:1:2::5', 200],
    ['IPv6 outside the CIDR', ['2001:db8:1::/48'], '2001:db8:2::5', 403],
    ['IPv4-mapped IPv6 against an IPv4 CIDR', ['192.0.2.0/24'], '::ffff:192.0.2.9', 200],
    ['any address with an empty list', [], '203.0.113.50', 200],
  ])('when the caller is %s, then %s', async (_case, list, ip, status) => {
    const res = await call(list, ip);

    expect(res.status).toBe(status);
  });

  it('when refused, then the body says the calling address is not allowed', async () => {
    const res = await call(['192.0.2.1'], '192.0.2.2');

    expect(res.body).toEqual({ code: 'FORBIDDEN', message: 'calling address not allowed' });
  });

  it('when the proxy is not trusted, then X-Forwarded-For is ignored and the socket address is checked', async () => {
    const untrusting = createTestApp((app) =>
      app.get(
        '/guarded',
        as(makeAccount({ ipAllowList: ['192.0.2.0/24'] })),
        requireAllowedIp(),
        whoami,
      ),
    );

    const res = await request(untrusting).get('/guarded').set('X-Forwarded-For', '192.0.2.1');

    expect(res.status).toBe(403);
  });
});
