import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNumbers, type TestNumbers } from './support.js';

let t: TestNumbers;
beforeAll(async () => {
  t = await startTestNumbers();
}, 60_000);
afterAll(async () => t?.stop());

const REGISTRY_VALID_UNTIL = '2026-11-22T04:00:00.000Z';

describe('GET /v1/numbers/{number}', () => {
  it('when a Swedish number ported three times is asked, then the registry answers with recipient, range holder, brands and host network', async () => {
    const acct = await t.publishAccount(t.account());
    const res = await t.get(acct, '/v1/numbers/+46701234567');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      number: { e164: '46701234567', country: 'SE', type: 'mobile' },
      network: {
        service_provider: {
          id: '002',
          id_scheme: 'snpac_spid',
          name: 'Hi3G Access AB',
          brands: ['Tre', 'Hallon'],
        },
        host_network: { mcc: '240', mnc: '02', name: 'Tre' },
      },
      portability: {
        ported: true,
        range_holder: { id: '001', id_scheme: 'snpac_spid', name: 'Telia Sverige AB' },
      },
      findings: [],
      source: {
        basis: 'portability_registry',
        as_of: '2026-11-21T00:00:00.000Z',
        valid_until: REGISTRY_VALID_UNTIL,
      },
    });
  });

  it('when an MVNO number is asked, then host_network is the radio network hosting it', async () => {
    const acct = await t.publishAccount(t.account());
    const res = await t.get(acct, '/v1/numbers/46731112233');
    expect(res.body.network).toEqual({
      service_provider: {
        id: '040',
        id_scheme: 'snpac_spid',
        name: 'Telavox AB',
        brands: ['Telavox'],
      },
      host_network: { mcc: '240', mnc: '08', name: 'Telenor' },
    });
  });

  it('when a number was never ported, then ported is false and the provider is the range holder', async () => {
    const acct = await t.publishAccount(t.account());
    const res = await t.get(acct, '/v1/numbers/46707111222');
    expect(res.body.portability).toEqual({
      ported: false,
      range_holder: { id: '007', id_scheme: 'snpac_spid', name: 'Tele2 Sverige AB' },
    });
    expect(res.body.network.service_provider.id).toBe('007');
  });

  it('when a provider has no brands and no host network, then those fields are absent, not null', async () => {
    const acct = await t.publishAccount(t.account());
    const landline = await t.get(acct, '/v1/numbers/4631701020');
    expect(landline.body.network).toEqual({
      service_provider: {
        id: '071',
        id_scheme: 'snpac_spid',
        name: 'Bahnhof AB',
        brands: ['Bahnhof'],
      },
    });
    const mobile = await t.get(acct, '/v1/numbers/46709876543');
    expect(mobile.body.network.service_provider).toEqual({
      id: '046',
      id_scheme: 'snpac_spid',
      name: 'Netmore Group AB',
    });
    for (const res of [landline, mobile]) expect(JSON.stringify(res.body)).not.toContain('null');
  });

  it.each([
    ['+46701234567'],
    ['46701234567'],
    ['0046701234567'],
    ['+46 70-123 45 67'],
    ['0046 70 123 45 67'],
  ])('when the number is written %j, then it is read as 46701234567', async (form) => {
    const acct = await t.publishAccount(t.account());
    const res = await t.get(acct, `/v1/numbers/${encodeURIComponent(form)}`);
    expect(res.status).toBe(200);
    expect(res.body.number.e164).toBe('46701234567');
    expect(res.headers['content-location']).toBe('/v1/numbers/46701234567');
  });
});

describe('findings', () => {
  it.each([
    ['national form', '0701234567'],
    ['letters', '+4670abc4567'],
    ['too short', '+4670'],
    ['too long', '+467012345678901'],
    ['far too long', `+46${'7'.repeat(60)}`],
    ['unassigned country code', '+99912345678'],
  ])(
    'when the number is %s, then 200 invalid_number with the input as received and nothing else',
    async (_what, input) => {
      const acct = await t.publishAccount(t.account());
      const res = await t.get(acct, `/v1/numbers/${encodeURIComponent(input)}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        number: { e164: input },
        findings: ['invalid_number'],
        source: { basis: 'number_range', as_of: expect.any(String), valid_until: null },
      });
      expect(res.headers['content-location']).toBeUndefined();
      expect(res.headers['cache-control']).toBe('private, no-store');
    },
  );

  it('when the number has a valid length but lies in no allocated range, then unallocated_range', async () => {
    const acct = await t.publishAccount(t.account());
    // +46 71x is not a Swedish range.
    const res = await t.get(acct, '/v1/numbers/46711234567');
    expect(res.status).toBe(200);
    expect(res.body.findings).toEqual(['unallocated_range']);
    expect(res.body.network).toBeUndefined();
    expect(res.headers['content-location']).toBe('/v1/numbers/46711234567');
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('when the number is a global service number, then unsupported_country', async () => {
    const acct = await t.publishAccount(t.account());
    const res = await t.get(acct, '/v1/numbers/+80012345678');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      number: { e164: '80012345678', type: 'toll_free', service_code: '800' },
      findings: ['unsupported_country'],
    });
    expect(res.body.number.country).toBeUndefined();
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('when a country has ranges but no carrier data, then unsupported_country', async () => {
    const acct = await t.publishAccount(t.account());
    const res = await t.get(acct, '/v1/numbers/+14155550123');
    expect(res.status).toBe(200);
    expect(res.body.findings).toContain('unsupported_country');
    expect(res.body.number.country).toBe('US');
  });

  it('when another country has carrier data for the range, then a number_range answer that is never cached', async () => {
    const acct = await t.publishAccount(t.account());
    const res = await t.get(acct, '/v1/numbers/+4915123456789');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      number: { e164: '4915123456789', country: 'DE', type: 'mobile' },
      network: { service_provider: { id_scheme: 'range_carrier_name' } },
      portability: { ported: false },
      findings: [],
      source: { basis: 'number_range', valid_until: null },
    });
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('when the number is a landline, then not_mobile with the type, and the registry provider', async () => {
    const acct = await t.publishAccount(t.account());
    const res = await t.get(acct, '/v1/numbers/4684561234');
    expect(res.status).toBe(200);
    expect(res.body.number).toEqual({ e164: '4684561234', country: 'SE', type: 'landline' });
    expect(res.body.findings).toEqual(['not_mobile']);
    expect(res.body.network.service_provider.id).toBe('007');
  });

  it('when the number is a Swedish toll-free number, then not_mobile with its service code', async () => {
    const acct = await t.publishAccount(t.account());
    const res = await t.get(acct, '/v1/numbers/46200123456');
    expect(res.body.number).toEqual({
      e164: '46200123456',
      country: 'SE',
      type: 'toll_free',
      service_code: '20',
    });
    expect(res.body.findings).toEqual(['not_mobile']);
  });
});

describe('headers', () => {
  it('when a view is answered, then ETag is a strong quoted validator of the exact body', async () => {
    const acct = await t.publishAccount(t.account());
    const res = await t.get(acct, '/v1/numbers/46701234567');
    const { createHash } = await import('node:crypto');
    const expected = `"${createHash('sha256').update(res.text).digest('base64url')}"`;
    expect(res.headers.etag).toBe(expected);
    expect(res.headers.vary).toBe('Authorization');
  });

  it('when If-None-Match names the ETag (alone, in a list, weak, or *), then 304 with the same headers and no body', async () => {
    const acct = await t.publishAccount(t.account());
    const first = await t.get(acct, '/v1/numbers/46701234567');
    const etag = first.headers.etag ?? '';
    for (const header of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
      const res = await t.get(acct, '/v1/numbers/46701234567').set('If-None-Match', header);
      expect(res.status, header).toBe(304);
      expect(res.text).toBe('');
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe(first.headers['cache-control']);
      expect(res.headers['content-location']).toBe('/v1/numbers/46701234567');
      expect(res.headers.vary).toBe('Authorization');
    }
  });

  it('when If-None-Match names another ETag, then 200 with the body', async () => {
    const acct = await t.publishAccount(t.account());
    const res = await t.get(acct, '/v1/numbers/46701234567').set('If-None-Match', '"nope"');
    expect(res.status).toBe(200);
    expect(res.body.number.e164).toBe('46701234567');
  });

  it('when the views of one number are asked, then each has its own canonical Content-Location and ETag', async () => {
    const acct = await t.publishAccount(t.account());
    const base = await t.get(acct, '/v1/numbers/+46701234567');
    const history = await t.get(acct, '/v1/numbers/0046701234567/porting-history');
    const live = await t.get(acct, '/v1/numbers/46701234567/live-status');
    expect(base.headers['content-location']).toBe('/v1/numbers/46701234567');
    expect(history.headers['content-location']).toBe('/v1/numbers/46701234567/porting-history');
    expect(live.headers['content-location']).toBe('/v1/numbers/46701234567/live-status');
    expect(new Set([base, history, live].map((r) => r.headers.etag)).size).toBe(3);
  });

  it('when a registry answer is asked before its valid_until, then max-age counts down to it', async () => {
    const acct = await t.publishAccount(t.account());
    t.clock.set('2026-11-22T03:00:00.000Z');
    try {
      const res = await t.get(acct, '/v1/numbers/46701234567');
      expect(res.headers['cache-control']).toBe('private, max-age=3600');
    } finally {
      t.clock.set('2026-11-21T12:00:00.000Z');
    }
  });

  it('when the registry snapshot valid_until has passed (no newer snapshot), then private, no-cache', async () => {
    const acct = await t.publishAccount(t.account());
    t.clock.set('2026-11-22T05:00:00.000Z');
    try {
      const res = await t.get(acct, '/v1/numbers/46701234567');
      expect(res.status).toBe(200);
      expect(res.body.source.valid_until).toBe(REGISTRY_VALID_UNTIL);
      expect(res.headers['cache-control']).toBe('private, no-cache');
    } finally {
      t.clock.set('2026-11-21T12:00:00.000Z');
    }
  });
});

describe('GET /v1/numbers/{number}/porting-history', () => {
  it('when the number was ported several times, then every port newest first with history_since and the registry source', async () => {
    const acct = await t.publishAccount(t.account());
    const res = await t.get(acct, '/v1/numbers/46702223344/porting-history');
    expect(res.status).toBe(200);
    const spid = (id: string, name: string) => ({ id, id_scheme: 'snpac_spid', name });
    expect(res.body.porting_history).toEqual({
      ports: [
        {
          ported_at: '2023-04-03',
          donor: spid('002', 'Hi3G Access AB'),
          recipient: spid('001', 'Telia Sverige AB'),
        },
        {
          ported_at: '2020-04-06',
          donor: spid('007', 'Tele2 Sverige AB'),
          recipient: spid('002', 'Hi3G Access AB'),
        },
        {
          ported_at: '2019-04-01',
          donor: spid('008', 'Telenor Sverige AB'),
          recipient: spid('007', 'Tele2 Sverige AB'),
        },
        {
          ported_at: '2018-04-03',
          donor: spid('001', 'Telia Sverige AB'),
          recipient: spid('008', 'Telenor Sverige AB'),
        },
      ],
      history_since: '2015-01-01',
      source: {
        basis: 'portability_registry',
        as_of: '2026-11-21T00:00:00.000Z',
        valid_until: REGISTRY_VALID_UNTIL,
      },
    });
    // Ported back to the range holder: the base says ported (it left and came back).
    expect(res.body.portability.ported).toBe(true);
    expect(res.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
  });

  it('when a number was never ported, then ports is empty', async () => {
    const acct = await t.publishAccount(t.account());
    const res = await t.get(acct, '/v1/numbers/46707111222/porting-history');
    expect(res.body.porting_history.ports).toEqual([]);
  });

  it('when the country has no registry, then the aspect holds only its source and the answer is not stored', async () => {
    const acct = await t.publishAccount(t.account());
    const res = await t.get(acct, '/v1/numbers/+4915123456789/porting-history');
    expect(res.status).toBe(200);
    expect(res.body.porting_history).toEqual({
      source: { basis: 'number_range', as_of: expect.any(String), valid_until: null },
    });
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('when the answer is a finding, then there is no aspect and no Content-Location on invalid_number', async () => {
    const acct = await t.publishAccount(t.account());
    const res = await t.get(acct, '/v1/numbers/0701234567/porting-history');
    expect(res.status).toBe(200);
    expect(res.body.findings).toEqual(['invalid_number']);
    expect(res.body.porting_history).toBeUndefined();
    expect(res.headers['content-location']).toBeUndefined();
  });
});
