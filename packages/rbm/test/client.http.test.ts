import { verify } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createRbmClient, GOOGLE_TOKEN_URL, RBM_SCOPE, RbmError } from '../src/index.js';
import { fakeServer, type Handler, json, testServiceAccount } from './fake-rbm.js';

const AGENT = 'demo_agent';
const PHONE = '+447700900123';
const account = testServiceAccount();

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A fake RBM with its own token endpoint at /token; `api` answers everything else. */
async function fakeRbm(api: Handler) {
  const server = await fakeServer((req, res) => {
    if (req.url.pathname === '/token') {
      json(res, 200, { access_token: 'tok-1', expires_in: 3600, token_type: 'Bearer' });
      return;
    }
    api(req, res);
  });
  close = server.close;
  const client = createRbmClient({
    baseUrl: server.url,
    tokenUrl: `${server.url}/token`,
    serviceAccount: account.key,
  });
  const apiRequests = () => server.requests.filter((r) => r.url.pathname !== '/token');
  const tokenRequests = () => server.requests.filter((r) => r.url.pathname === '/token');
  return { client, apiRequests, tokenRequests };
}

describe('access token', () => {
  it('posts a signed RS256 JWT bearer assertion with the RBM scope to the configured token URL', async () => {
    const rbm = await fakeRbm((_req, res) => json(res, 200, { features: [] }));
    await rbm.client.getCapabilities(AGENT, PHONE);
    const [tokenRequest] = rbm.tokenRequests();
    const form = new URLSearchParams(tokenRequest?.body);
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const [header, payload, signature] = (form.get('assertion') ?? '').split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    expect(JSON.parse(Buffer.from(header ?? '', 'base64url').toString()).alg).toBe('RS256');
    expect(claims).toMatchObject({
      iss: account.key.client_email,
      scope: RBM_SCOPE,
      aud: GOOGLE_TOKEN_URL,
    });
    const signed = verify(
      'RSA-SHA256',
      Buffer.from(`${header}.${payload}`),
      account.publicKey,
      Buffer.from(signature ?? '', 'base64url'),
    );
    expect(signed).toBe(true);
    expect(rbm.apiRequests()[0]?.authorization).toBe('Bearer tok-1');
  });

  it('reuses the cached token until near expiry (one token request for several calls)', async () => {
    const rbm = await fakeRbm((_req, res) => json(res, 200, { features: [] }));
    await rbm.client.getCapabilities(AGENT, PHONE);
    await rbm.client.getCapabilities(AGENT, PHONE);
    await rbm.client.inviteTester(AGENT, PHONE);
    expect(rbm.tokenRequests()).toHaveLength(1);
    expect(rbm.apiRequests()).toHaveLength(3);
  });
});

describe('operations on the wire', () => {
  it('sends POST /v1/phones/{E164}/agentMessages?messageId&agentId with the body as given', async () => {
    const rbm = await fakeRbm((_req, res) =>
      json(res, 200, {
        name: `phones/${PHONE}/agentMessages/m-1`,
        sendTime: '2026-11-24T09:00:00Z',
      }),
    );
    const body = {
      contentMessage: {
        richCard: {
          carouselCard: {
            cardWidth: 'MEDIUM' as const,
            cardContents: [
              {
                title: 'One',
                media: {
                  height: 'SHORT' as const,
                  contentInfo: { fileUrl: 'https://x/1.png', forceRefresh: true },
                },
              },
              { title: 'Two' },
            ],
          },
        },
        suggestions: [
          { reply: { text: 'Yes', postbackData: 'yes' } },
          {
            action: {
              text: 'Call',
              postbackData: 'call',
              dialAction: { phoneNumber: '+15551234567' },
            },
          },
        ],
      },
      messageTrafficType: 'TRANSACTION' as const,
      ttl: '3600s',
    };
    const answer = await rbm.client.sendMessage(AGENT, PHONE, 'm-1', body);
    const [request] = rbm.apiRequests();
    expect(request?.method).toBe('POST');
    expect(decodeURIComponent(request?.url.pathname ?? '')).toBe(
      `/v1/phones/${PHONE}/agentMessages`,
    );
    expect(request?.url.searchParams.get('messageId')).toBe('m-1');
    expect(request?.url.searchParams.get('agentId')).toBe(AGENT);
    expect(JSON.parse(request?.body ?? '')).toEqual(body);
    expect(answer.name).toBe(`phones/${PHONE}/agentMessages/m-1`);
  });

  it('answers a capability 200 with its features and a 404 as not reachable', async () => {
    const rbm = await fakeRbm((req, res) => {
      if (req.url.pathname.includes('447700900999')) {
        json(res, 404, {
          error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' },
        });
      } else {
        json(res, 200, { features: ['RICHCARD_STANDALONE', 'ACTION_DIAL'] });
      }
    });
    expect(await rbm.client.getCapabilities(AGENT, PHONE, 'req-1')).toEqual({
      reachable: true,
      features: ['RICHCARD_STANDALONE', 'ACTION_DIAL'],
    });
    expect(await rbm.client.getCapabilities(AGENT, '+447700900999')).toEqual({ reachable: false });
    const [first] = rbm.apiRequests();
    expect(first?.method).toBe('GET');
    expect(first?.url.searchParams.get('requestId')).toBe('req-1');
    expect(first?.url.searchParams.get('agentId')).toBe(AGENT);
  });

  it('invites a tester with POST /v1/phones/{E164}/testers?agentId', async () => {
    const rbm = await fakeRbm((_req, res) =>
      json(res, 200, { name: `phones/${PHONE}/testers`, inviteStatus: 'PENDING' }),
    );
    expect(await rbm.client.inviteTester(AGENT, PHONE)).toEqual({
      name: `phones/${PHONE}/testers`,
      inviteStatus: 'PENDING',
    });
    const [request] = rbm.apiRequests();
    expect(request?.method).toBe('POST');
    expect(decodeURIComponent(request?.url.pathname ?? '')).toBe(`/v1/phones/${PHONE}/testers`);
    expect(request?.url.searchParams.get('agentId')).toBe(AGENT);
  });

  it('revokes with DELETE .../agentMessages/{id}; 404 (already delivered) is not_found', async () => {
    const rbm = await fakeRbm((req, res) => {
      if (req.url.pathname.endsWith('/gone')) {
        json(res, 404, { error: { code: 404, message: 'not found', status: 'NOT_FOUND' } });
      } else {
        json(res, 200, {});
      }
    });
    expect(await rbm.client.revokeMessage(AGENT, PHONE, 'm-1')).toBe('revoked');
    expect(await rbm.client.revokeMessage(AGENT, PHONE, 'gone')).toBe('not_found');
    const [request] = rbm.apiRequests();
    expect(request?.method).toBe('DELETE');
    expect(decodeURIComponent(request?.url.pathname ?? '')).toBe(
      `/v1/phones/${PHONE}/agentMessages/m-1`,
    );
    expect(request?.url.searchParams.get('agentId')).toBe(AGENT);
  });

  it('refuses a phone that is not E.164 before calling anything', async () => {
    const rbm = await fakeRbm((_req, res) => json(res, 200, {}));
    await expect(rbm.client.getCapabilities(AGENT, '447700900123')).rejects.toThrow(RangeError);
    expect(rbm.apiRequests()).toHaveLength(0);
  });
});

describe('error mapping', () => {
  it.each([
    [400, 'INVALID_ARGUMENT', false],
    [403, 'PERMISSION_DENIED', false],
    [429, 'RESOURCE_EXHAUSTED', true],
    [500, 'INTERNAL', true],
    [503, 'UNAVAILABLE', true],
  ])('maps Google error body %i %s to RbmError (retryable %s)', async (code, status, retryable) => {
    const rbm = await fakeRbm((_req, res) =>
      json(res, code, { error: { code, message: `it failed: ${status}`, status } }),
    );
    const error = await rbm.client
      .sendMessage(AGENT, PHONE, 'm-1', { contentMessage: { text: 'hi' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RbmError);
    expect(error).toMatchObject({
      httpStatus: code,
      status,
      retryable,
      message: `it failed: ${status}`,
    });
  });

  it('names the status from the HTTP code when the body is not Google JSON', async () => {
    const rbm = await fakeRbm((_req, res) => res.writeHead(502).end('<html>bad gateway</html>'));
    const error = await rbm.client.inviteTester(AGENT, PHONE).catch((e: unknown) => e);
    expect(error).toMatchObject({ httpStatus: 502, status: 'UNKNOWN', retryable: true });
  });

  it('a platform that cannot be reached is a retryable RbmError with status 0', async () => {
    const client = createRbmClient({
      baseUrl: 'http://127.0.0.1:1',
      tokens: { token: async () => 'static' },
      timeoutMs: 2_000,
    });
    const error = await client.getCapabilities(AGENT, PHONE).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'RbmError',
      httpStatus: 0,
      status: 'UNAVAILABLE',
      retryable: true,
    });
  });
});
