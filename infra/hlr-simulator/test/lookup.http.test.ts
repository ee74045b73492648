import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type HlrSimulator, startHlrSimulator } from '../src/index.js';
import { basic, CREDENTIALS, call } from './support.js';

let hlr: HlrSimulator;
const lookup = (msisdn: string, authorization = basic(CREDENTIALS)) =>
  call(`${hlr.url}/v1/hlr/${msisdn}`, { authorization });

beforeAll(async () => {
  hlr = await startHlrSimulator({ credentials: CREDENTIALS });
});
afterAll(() => hlr.close());
beforeEach(() => hlr.reset());

describe('GET /v1/hlr/{msisdn}', () => {
  it('when a Telia number is looked up, then it is reachable with a Swedish IMSI of MNC 01', async () => {
    const before = Date.now();
    const { status, body } = await lookup('46701234567');
    expect(status).toBe(200);
    expect(body).toEqual({
      msisdn: '46701234567',
      status: 'reachable',
      imsi: expect.stringMatching(/^24001[0-9]{10}$/),
      mcc: '240',
      mnc: '01',
      network: 'Telia',
      checked_at: expect.any(String),
    });
    const checkedAt = Date.parse((body as { checked_at: string }).checked_at);
    expect(checkedAt).toBeGreaterThanOrEqual(before - 1000);
  });

  it('when the same number is looked up twice, then the IMSI is the same', async () => {
    const first = await lookup('46731234567');
    const second = await lookup('46731234567');
    expect(first.body).toMatchObject({ mnc: '08', network: 'Telenor' });
    expect((first.body as { imsi: string }).imsi).toBe((second.body as { imsi: string }).imsi);
  });

  it.each([
    ['46701234991', 'absent', true],
    ['46701234992', 'barred', true],
    ['46701234993', 'unknown_subscriber', false],
    ['46701234994', 'not_provisioned', false],
  ])('when %s is looked up, then the status is %s', async (msisdn, expected, hasImsi) => {
    const { status, body } = await lookup(msisdn);
    expect(status).toBe(200);
    expect(body).toMatchObject({ msisdn, status: expected, mcc: '240', mnc: '01' });
    expect((body as { imsi: string }).imsi === '').toBe(!hasImsi);
  });

  it('when a number outside the known ranges is looked up, then it is not_provisioned with empty network fields', async () => {
    const { status, body } = await lookup('4681234567');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'not_provisioned',
      imsi: '',
      mcc: '',
      mnc: '',
      network: '',
    });
  });

  it('when a number ending 995 is looked up, then the answer is 503 with Retry-After', async () => {
    const { status, headers } = await lookup('46701234995');
    expect(status).toBe(503);
    expect(headers.get('retry-after')).toBe('1');
  });

  it('when the status is set to unavailable, then the answer is 503', async () => {
    hlr.setStatus('46701234567', 'unavailable');
    expect((await lookup('46701234567')).status).toBe(503);
  });

  it('when the status is set to barred, then the answer says barred', async () => {
    hlr.setStatus('46701234567', 'barred');
    expect((await lookup('46701234567')).body).toMatchObject({ status: 'barred' });
  });

  it('when setStatus gets an unknown status, then it throws', () => {
    expect(() => hlr.setStatus('46701234567', 'gone')).toThrow(RangeError);
  });

  it.each([
    ['no credentials', undefined],
    ['a wrong password', basic('numbers:wrong')],
    ['a wrong user', basic('other:s3cret')],
    ['a Bearer token', 'Bearer abc'],
  ])(
    'when the request has %s, then the answer is 401 with a Basic challenge',
    async (_name, authorization) => {
      const { status, headers } = await call(`${hlr.url}/v1/hlr/46701234567`, {
        ...(authorization !== undefined && { authorization }),
      });
      expect(status).toBe(401);
      expect(headers.get('www-authenticate')).toMatch(/^Basic /);
      expect(hlr.queries()).toBe(0);
    },
  );

  it.each(['+46701234567', '0701234567', '467012', 'abc', '4670123456789012'])(
    'when the msisdn is %s, then the answer is 400',
    async (msisdn) => {
      const { status, body } = await lookup(encodeURIComponent(msisdn));
      expect(status).toBe(400);
      expect(body).toMatchObject({ error: 'invalid_msisdn' });
    },
  );

  it('when lookups are made, then queries counts them in all and per number', async () => {
    await lookup('46701234567');
    await lookup('46701234567');
    await lookup('46761234567');
    await lookup('46701234995');
    expect(hlr.queries()).toBe(4);
    expect(hlr.queries('46701234567')).toBe(2);
    expect(hlr.queries('46709999999')).toBe(0);
    hlr.reset();
    expect(hlr.queries()).toBe(0);
  });
});
