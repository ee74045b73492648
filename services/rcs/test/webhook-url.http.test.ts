import type { AccountState } from '@msg/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, startTestRcs, type TestRcs } from './support.js';

/**
 * webhook_url is a client URL like every callback URL (format callback-url of @msg/http):
 * an RFC 3986 URI in ASCII, and — with RCS_WEBHOOK_ALLOW_PRIVATE_TARGETS unset, as in every
 * production-shaped start — never a host that is private on its face, however it is spelt.
 */
describe('webhook_url with RCS_WEBHOOK_ALLOW_PRIVATE_TARGETS unset', () => {
  let rcs: TestRcs;
  let owner: AccountState;
  let agentSeq = 0;

  beforeAll(async () => {
    rcs = await startTestRcs({ perMinute: 100_000 });
    owner = await rcs.publishAccount(rcs.account());
  });

  afterAll(async () => {
    await rcs?.stop();
  });

  async function newAgent(): Promise<string> {
    agentSeq += 1;
    const id = `url-agent-${agentSeq}`;
    await rcs.agent(id, [owner]);
    return id;
  }

  const create = async (webhook_url: string) =>
    rcs
      .raw()
      .post('/v1/webhooks')
      .set('x-api-key', API_KEY)
      .set('x-client-id', owner.name)
      .send({ agent_id: await newAgent(), webhook_url });

  function expectRefused(res: { status: number; body: Record<string, unknown> }) {
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    const details = res.body.details as { errors: { loc: string[]; type: string }[] };
    expect(details.errors).toEqual([
      expect.objectContaining({ loc: ['body', 'webhook_url'], type: 'format' }),
    ]);
  }

  it.each([
    ['loopback', 'http://127.0.0.1:9/hook'],
    ['short loopback', 'http://127.1/hook'],
    ['private', 'https://10.1.2.3/hook'],
    ['metadata', 'http://169.254.169.254/latest/meta-data/'],
    ['metadata, decimal', 'http://2852039166/'],
    ['metadata, hex', 'http://0xa9fea9fe/'],
    ['metadata, octal', 'http://0251.0376.0251.0376/'],
    ['metadata, IPv6-mapped', 'http://[::ffff:169.254.169.254]/'],
    ['metadata, IPv6-mapped hex', 'http://[::ffff:a9fe:a9fe]/'],
    ['localhost', 'http://localhost:8080/hook'],
    ['a subdomain of localhost', 'http://hooks.localhost/'],
    ['0.0.0.0', 'http://0.0.0.0/'],
    ['[::]', 'http://[::]/'],
    ['[::1]', 'http://[::1]/'],
  ])('when webhook_url is %s (%s), then 400 naming webhook_url', async (_case, url) => {
    expectRefused(await create(url));
  });

  it.each([
    ['a C0 control', 'https://hooks.example.com/\u0007'],
    ['a C1 control', 'https://hooks.example.com/\u0085'],
    ['a right-to-left override', 'https://hooks.example.com/\u202etxt.exe'],
    ['a zero-width space', 'https://hooks.exam\u200bple.com/'],
    ['U+FFFF', 'https://hooks.example.com/\uffff'],
    ['an IDN not in punycode', 'https://bücher.example/hook'],
  ])('when webhook_url has %s, then 400 naming webhook_url', async (_case, url) => {
    expectRefused(await create(url));
  });

  it('when webhook_url is a public name, an IDN in punycode or a public address, then 201', async () => {
    for (const url of [
      'https://hooks.example.com/rcs?x=%20',
      'https://xn--bcher-kva.example/hook',
      'https://8.8.8.8/hook',
    ]) {
      const res = await create(url);
      expect(res.status, url).toBe(201);
      expect(res.body.webhook_url).toBe(url);
    }
  });

  it('when PATCH moves webhook_url to a private address, then 400 naming webhook_url', async () => {
    const created = await create('https://hooks.example.com/patched');
    expect(created.status).toBe(201);
    const res = await rcs
      .raw()
      .patch(`/v1/webhooks/${created.body.id}`)
      .set('x-api-key', API_KEY)
      .set('x-client-id', owner.name)
      .send({ webhook_url: 'http://[::ffff:a9fe:a9fe]/' });
    expectRefused(res);
  });
});
