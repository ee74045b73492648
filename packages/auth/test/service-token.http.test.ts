import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { requireServiceToken } from '../src/service-token.js';
import { createTestApp } from './support/app.js';

const options = { realm: 'internal', message: 'a valid token is required' };
const app = (token: string | undefined) =>
  createTestApp((a) =>
    a.get('/x', requireServiceToken(token, options), (_req, res) => res.json({ ok: true })),
  );

describe('requireServiceToken', () => {
  it('when the configured token is presented, then the request passes', async () => {
    expect(
      (await request(app('s3cret-token')).get('/x').set('Authorization', 'Bearer s3cret-token'))
        .status,
    ).toBe(200);
  });

  it.each([
    ['no header', undefined],
    ['a wrong token', 'Bearer s3cret-tokem'],
    ['a longer token', 'Bearer s3cret-token-and-more'],
    ['another scheme', 'Basic czNjcmV0LXRva2Vu'],
  ])(
    'when the request has %s, then 401 with the Bearer challenge of the realm',
    async (_case, header) => {
      const req = request(app('s3cret-token')).get('/x');
      const res = await (header ? req.set('Authorization', header) : req);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="internal"');
      expect(res.body.message).toBe(options.message);
    },
  );

  it('when no token is configured, then every call is refused', async () => {
    expect((await request(app(undefined)).get('/x').set('Authorization', 'Bearer ')).status).toBe(
      401,
    );
    expect((await request(app(undefined)).get('/x').set('Authorization', 'Bearer x')).status).toBe(
      401,
    );
  });
});
