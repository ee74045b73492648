import type { AccountState } from '@msg/contracts';
import { deadUrl, startTestRuntime } from '@msg/testing';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeNumbers,
  liveAspects,
  NUMBERS_TOKEN,
  numbersBase,
  startFakeNumbers,
} from './fake-numbers.js';
import { startTestLookup, type TestLookup } from './support.js';

const MOBILE = '46701234567';

let numbers: FakeNumbers;
let lookup: TestLookup;
let acct: AccountState;

beforeAll(async () => {
  numbers = await startFakeNumbers();
  lookup = await startTestLookup(numbers.url);
  acct = await lookup.publishAccount(lookup.account());
}, 30_000);

afterAll(async () => {
  await lookup?.stop();
  await numbers?.close();
});

beforeEach(() => numbers.reset());

describe('lookupSweden', () => {
  it('when a Swedish mobile is looked up, then 200 with CC, Country, IMSI, MCC, MNC, Operator, SPID and R 0', async () => {
    const res = await lookup.get(acct, `/v1/lookup/sweden/${MOBILE}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      CC: '46',
      Country: 'SE',
      IMSI: '',
      MCC: '240',
      MNC: '01',
      Operator: 'Telia Sverige AB',
      SPID: '001',
      R: 0,
    });
    expect(numbers.seen).toEqual([
      { digits: MOBILE, aspects: undefined, authorization: `Bearer ${NUMBERS_TOKEN}` },
    ]);
  });

  it('when the number is not Swedish, then 400 not_swedish and the numbers service is not asked', async () => {
    const res = await lookup.get(acct, '/v1/lookup/sweden/4740012345');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ loc: ['path', 'msisdn'], type: 'not_swedish' }],
    });
    expect(numbers.seen).toEqual([]);
  });

  it('when the registry has no operator for the number, then Operator, SPID, MCC and MNC are empty strings', async () => {
    const base = numbersBase(MOBILE);
    numbers.answer(MOBILE, {
      body: {
        base: {
          ...base,
          network: { service_provider: { id: '', id_scheme: 'none', name: '' } },
          findings: ['unallocated_range'],
        },
      },
    });
    const res = await lookup.get(acct, `/v1/lookup/sweden/${MOBILE}`);
    expect(res.body).toEqual({
      CC: '46',
      Country: 'SE',
      IMSI: '',
      MCC: '',
      MNC: '',
      Operator: '',
      SPID: '',
      R: 2,
    });
  });
});

describe('lookupBasic', () => {
  it('when the network answers reachable, then 200 with CC, Country, IMSI, MCC, MNC, HLR OK and R 0 only', async () => {
    const res = await lookup.get(acct, `/v1/lookup/basic/${MOBILE}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      CC: '46',
      Country: 'SE',
      IMSI: '240011234567890',
      MCC: '240',
      MNC: '01',
      HLR: 'OK',
      R: 0,
    });
    expect(numbers.seen[0]?.aspects).toBe('live_status,porting_history');
  });

  it.each([
    ['absent', 'ABSENT'],
    ['barred', 'BARRED'],
    ['unknown_subscriber', 'UNKNOWN'],
    ['not_provisioned', 'NOT_PROVISIONED'],
  ])('when the live state is %s, then HLR is %s and R 0', async (state, hlr) => {
    numbers.answer(MOBILE, { body: { base: numbersBase(MOBILE), ...liveAspects(state) } });
    const res = await lookup.get(acct, `/v1/lookup/basic/${MOBILE}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ HLR: hlr, R: 0 });
  });

  it('when the network did not answer, then HLR UNAVAILABLE, R 5 and an empty IMSI', async () => {
    numbers.answer(MOBILE, {
      body: { base: numbersBase(MOBILE), ...liveAspects('unavailable') },
    });
    const res = await lookup.get(acct, `/v1/lookup/basic/${MOBILE}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      CC: '46',
      Country: 'SE',
      IMSI: '',
      MCC: '240',
      MNC: '01',
      HLR: 'UNAVAILABLE',
      R: 5,
    });
  });

  it('when the numbers service finds the number invalid, then R 1 with empty data', async () => {
    numbers.answer('4612345678', {
      body: {
        base: {
          number: { e164: '4612345678', type: 'unknown' },
          findings: ['invalid_number'],
          source: { basis: 'number_range', as_of: '2026-11-22T00:00:00Z', valid_until: null },
        },
      },
    });
    const res = await lookup.get(acct, '/v1/lookup/basic/4612345678');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ CC: '46', Country: '', IMSI: '', MCC: '', MNC: '', HLR: '', R: 1 });
  });

  it('when the country has no data, then R 3', async () => {
    numbers.answer('2621234567', {
      body: {
        base: {
          number: { e164: '2621234567', country: 'RE', type: 'mobile' },
          findings: ['unsupported_country'],
        },
      },
    });
    const res = await lookup.get(acct, '/v1/lookup/basic/2621234567');
    expect(res.body).toEqual({
      CC: '262',
      Country: 'RE',
      IMSI: '',
      MCC: '',
      MNC: '',
      HLR: '',
      R: 3,
    });
  });

  it('when the number is a landline, then R 4 and no HLR', async () => {
    const base = numbersBase('4681234567');
    numbers.answer('4681234567', {
      body: {
        base: { ...base, number: { ...base.number, type: 'landline' }, findings: ['not_mobile'] },
      },
    });
    const res = await lookup.get(acct, '/v1/lookup/basic/4681234567');
    expect(res.body).toMatchObject({ HLR: '', R: 4 });
  });

  it('when the number is a landline and the numbers service still sends a live not_provisioned, then R 4 and HLR "" on both live levels', async () => {
    const base = numbersBase('4681234568');
    numbers.answer('4681234568', {
      body: {
        base: { ...base, number: { ...base.number, type: 'landline' }, findings: ['not_mobile'] },
        live_status: { state: 'not_provisioned' },
      },
    });
    for (const level of ['basic', 'advanced']) {
      const res = await lookup.get(acct, `/v1/lookup/${level}/4681234568`);
      expect(res.status, level).toBe(200);
      expect(res.body, level).toMatchObject({ HLR: '', R: 4 });
    }
  });
});

describe('lookupAdvanced', () => {
  it('when a Swedish mobile is looked up, then 200 with Operator, SPID and HLR', async () => {
    const res = await lookup.get(acct, `/v1/lookup/advanced/${MOBILE}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      CC: '46',
      Country: 'SE',
      IMSI: '240011234567890',
      MCC: '240',
      MNC: '01',
      Operator: 'Telia Sverige AB',
      SPID: '001',
      HLR: 'OK',
      R: 0,
    });
  });

  it('when the number is not Swedish, then SPID is absent', async () => {
    numbers.answer('4740012345', {
      body: {
        base: {
          ...numbersBase('4740012345'),
          number: { e164: '4740012345', country: 'NO', type: 'mobile' },
          network: {
            service_provider: {
              id: 'telenor-no',
              id_scheme: 'number_range',
              name: 'Telenor Norge',
            },
          },
        },
        live_status: { state: 'reachable' },
        hlr: { imsi: '242011234567890', mcc: '242', mnc: '01', network: 'Telenor Norge' },
      },
    });
    const res = await lookup.get(acct, '/v1/lookup/advanced/4740012345');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      CC: '47',
      Country: 'NO',
      IMSI: '242011234567890',
      MCC: '242',
      MNC: '01',
      Operator: 'Telenor Norge',
      HLR: 'OK',
      R: 0,
    });
  });

  it('when the operator is virtual on another network, then MNC is empty and the IMSI is the host’s', async () => {
    numbers.answer(MOBILE, {
      body: {
        base: {
          ...numbersBase(MOBILE),
          network: {
            service_provider: { id: '123', id_scheme: 'snpac_spid', name: 'Lycamobile Sweden' },
            host_network: { mcc: '240', mnc: '01', name: 'Telia' },
          },
        },
        ...liveAspects('reachable'),
      },
    });
    const res = await lookup.get(acct, `/v1/lookup/advanced/${MOBILE}`);
    expect(res.body).toMatchObject({
      IMSI: '240011234567890',
      MCC: '240',
      MNC: '',
      Operator: 'Lycamobile Sweden',
      SPID: '123',
    });
  });
});

describe('msisdn rules', () => {
  it.each([
    ['%2B46701234567', 'a plus'],
    ['0701234567', 'a national number'],
    ['46-70123456', 'a dash'],
    ['abc', 'letters'],
    ['467012', 'too few digits'],
    ['4670123456789012', 'more than 15 digits'],
  ])('when the msisdn is %s (%s), then 400 naming path.msisdn', async (msisdn) => {
    const res = await lookup.get(acct, `/v1/lookup/basic/${msisdn}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ loc: ['path', 'msisdn'] }],
    });
    expect(numbers.seen).toEqual([]);
  });

  it('when the country code is not assigned, then 400 invalid_country', async () => {
    const res = await lookup.get(acct, '/v1/lookup/advanced/9991234567');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      details: [{ loc: ['path', 'msisdn'], type: 'invalid_country' }],
    });
  });
});

describe('paths and methods', () => {
  it('when the level is unknown, then 404 NOT_FOUND', async () => {
    const res = await lookup.get(acct, `/v1/lookup/premium/${MOBILE}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND', message: expect.any(String) });
  });

  it('when the level is written in capitals (SWEDEN, Basic), then 404: paths are case-sensitive', async () => {
    for (const level of ['SWEDEN', 'Basic', 'ADVANCED']) {
      const res = await lookup.get(acct, `/v1/lookup/${level}/${MOBILE}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect((await lookup.get(acct, `/V1/lookup/basic/${MOBILE}`)).status).toBe(404);
  });

  it('when the path is unknown, then 404', async () => {
    expect((await lookup.get(acct, '/v1/lookup')).status).toBe(404);
  });

  it('when the method is POST, then 405 with Allow: GET', async () => {
    const res = await request(lookup.app).post(`/v1/lookup/basic/${MOBILE}`).auth(acct.name, 'x');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(res.body).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
  });
});

describe('authentication and access', () => {
  it('when there are no credentials, then 401 with a Basic challenge, before the msisdn is checked', async () => {
    const res = await request(lookup.app).get('/v1/lookup/basic/abc');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm="Lookup"/);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('when the password is wrong, then 401', async () => {
    const res = await lookup.get(acct, `/v1/lookup/basic/${MOBILE}`, acct.name, 'wrong');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic /);
  });

  it('when the user name differs in case, then it is the same account', async () => {
    const res = await lookup.get(acct, `/v1/lookup/sweden/${MOBILE}`, acct.name.toUpperCase());
    expect(res.status).toBe(200);
  });

  it.each<[string, Partial<AccountState>]>([
    ['disabled', { status: 'disabled' }],
    ['without the lookup permission', { permissions: ['sms', 'numbers'] }],
    ['calling from outside its IP allow-list', { ipAllowList: ['10.0.0.0/8'] }],
  ])('when the account is %s, then 403 FORBIDDEN', async (_name, overrides) => {
    const other = await lookup.publishAccount(lookup.account(overrides));
    const res = await lookup.get(other, `/v1/lookup/advanced/${MOBILE}`);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'FORBIDDEN' });
    expect(numbers.seen).toEqual([]);
  });

  it('when the account is past its request rate, then 429 with Retry-After', async () => {
    const slow = await lookup.publishAccount(
      lookup.account({ rateLimit: { perSecond: 1, burst: 1 } }),
    );
    expect((await lookup.get(slow, `/v1/lookup/sweden/${MOBILE}`)).status).toBe(200);
    const res = await lookup.get(slow, `/v1/lookup/sweden/${MOBILE}`);
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(res.body).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('when two replicas share a database, then the account rate holds across them', async () => {
    const runtime = await startTestRuntime({ service: 'lookup-legacy' });
    const replicas = [
      await startTestLookup(numbers.url, { pool: runtime.pool }),
      await startTestLookup(numbers.url, { pool: runtime.pool }),
    ];
    try {
      const state = lookup.account({ rateLimit: { perSecond: 0.5, burst: 1 } });
      for (const replica of replicas) await replica.publishAccount(state);

      const first = await replicas[0]?.get(state, `/v1/lookup/sweden/${MOBILE}`);
      const second = await replicas[1]?.get(state, `/v1/lookup/sweden/${MOBILE}`);

      expect(first?.status).toBe(200);
      expect(second?.status).toBe(429);
      expect(second?.headers['retry-after']).toBe('2');
    } finally {
      for (const replica of replicas) await replica.stop();
      await runtime.stop();
    }
  });
});

describe('numbers service failures', () => {
  it('when the numbers service answers 500 twice, then 503 with Retry-After after one retry', async () => {
    numbers.answer(MOBILE, { status: 500 });
    const res = await lookup.get(acct, `/v1/lookup/basic/${MOBILE}`);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(numbers.seen).toHaveLength(2);
  });

  it('when the numbers service refuses the token, then 503 and no retry', async () => {
    numbers.answer(MOBILE, { status: 401 });
    const res = await lookup.get(acct, `/v1/lookup/sweden/${MOBILE}`);
    expect(res.status).toBe(503);
    expect(numbers.seen).toHaveLength(1);
  });

  it('when the numbers service answers an unreadable body, then 503', async () => {
    numbers.answer(MOBILE, { body: { something: 'else' } });
    const res = await lookup.get(acct, `/v1/lookup/advanced/${MOBILE}`);
    expect(res.status).toBe(503);
  });

  it('when the numbers service is unreachable, then 503 with Retry-After', async () => {
    const down = await startTestLookup(await deadUrl());
    try {
      const account = await down.publishAccount(down.account());
      const res = await down.get(account, `/v1/lookup/sweden/${MOBILE}`);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        message: expect.stringMatching(/not available/),
      });
    } finally {
      await down.stop();
    }
  });
});
