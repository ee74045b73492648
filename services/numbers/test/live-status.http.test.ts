import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNumbers, type TestNumbers } from './support.js';

let t: TestNumbers;
beforeAll(async () => {
  // Short TTLs so that the fake clock can pass them; the clock never sleeps.
  t = await startTestNumbers({
    env: { LIVE_TTL_PRESENT: '60s', LIVE_TTL_BARRED: '2h', LIVE_TTL_UNKNOWN: '24h' },
  });
}, 60_000);
afterAll(async () => t?.stop());

const START = '2026-11-21T12:00:00.000Z';
const live = (digits: string) => `/v1/numbers/${digits}/live-status`;

describe('GET /v1/numbers/{number}/live-status', () => {
  it('when the network answers reachable, then live_status with the network time and minutes of validity', async () => {
    t.clock.set(START);
    const acct = await t.publishAccount(t.account());
    const res = await t.get(acct, live('46701000001'));
    expect(res.status).toBe(200);
    expect(res.body.live_status).toEqual({
      state: 'reachable',
      checked_at: expect.any(String),
      source: {
        basis: 'live_network',
        as_of: START,
        valid_until: '2026-11-21T12:01:00.000Z',
      },
    });
    // The earliest valid_until of base (registry) and aspect (live) decides.
    expect(res.headers['cache-control']).toBe('private, max-age=60');
  });

  it('when asked again before valid_until, then the stored answer is reused with its original as_of and checked_at', async () => {
    t.clock.set(START);
    const acct = await t.publishAccount(t.account());
    const first = await t.get(acct, live('46701000002'));
    t.clock.advance(30_000);
    const second = await t.get(acct, live('46701000002'));
    expect(t.hlr.queries('46701000002')).toBe(1);
    expect(second.body.live_status).toEqual(first.body.live_status);
    expect(second.headers['cache-control']).toBe('private, max-age=30');
    expect(second.headers.etag).toBe(first.headers.etag);
  });

  it('when asked after valid_until, then the network is asked again', async () => {
    t.clock.set(START);
    const acct = await t.publishAccount(t.account());
    await t.get(acct, live('46701000003'));
    t.clock.advance(61_000);
    const again = await t.get(acct, live('46701000003'));
    expect(t.hlr.queries('46701000003')).toBe(2);
    expect(again.body.live_status.source.as_of).toBe('2026-11-21T12:01:01.000Z');
  });

  it.each([
    ['absent', 60_000, '46701000101'],
    ['barred', 2 * 3_600_000, '46701000102'],
    ['unknown_subscriber', 24 * 3_600_000, '46701000103'],
    ['not_provisioned', 24 * 3_600_000, '46701000104'],
  ])(
    'when the network answers %s, then it is valid for its configured time',
    async (state, ms, digits) => {
      t.clock.set(START);
      const acct = await t.publishAccount(t.account());
      t.hlr.setStatus(digits, state);
      const res = await t.get(acct, live(digits));
      expect(res.body.live_status.state).toBe(state);
      expect(res.body.live_status.source.valid_until).toBe(
        new Date(Date.parse(START) + ms).toISOString(),
      );
    },
  );

  it('when the network is unavailable, then state unavailable, valid_until null, no-store, and it is never reused', async () => {
    t.clock.set(START);
    const acct = await t.publishAccount(t.account());
    t.hlr.setStatus('46701000009', 'unavailable');
    const res = await t.get(acct, live('46701000009'));
    expect(res.status).toBe(200);
    expect(res.body.live_status).toEqual({
      state: 'unavailable',
      checked_at: START,
      source: { basis: 'live_network', as_of: START, valid_until: null },
    });
    expect(res.headers['cache-control']).toBe('private, no-store');
    t.hlr.setStatus('46701000009', 'reachable');
    const after = await t.get(acct, live('46701000009'));
    expect(after.body.live_status.state).toBe('reachable');
    expect(t.hlr.queries('46701000009')).toBe(2);
  });

  it('when a live answer has expired, then If-None-Match with the old ETag gets a new answer (200), not 304', async () => {
    t.clock.set(START);
    const acct = await t.publishAccount(t.account());
    const first = await t.get(acct, live('46701000010'));
    t.clock.advance(120_000);
    const res = await t
      .get(acct, live('46701000010'))
      .set('If-None-Match', first.headers.etag ?? '');
    // as_of changed, so the body (and its ETag) changed: 200, not 304.
    expect(res.status).toBe(200);
    expect(res.headers.etag).not.toBe(first.headers.etag);
  });

  it('when the answer is a finding, then the network is not asked', async () => {
    t.clock.set(START);
    const acct = await t.publishAccount(t.account());
    const before = t.hlr.queries();
    const res = await t.get(acct, live('0701234567'));
    expect(res.body.findings).toEqual(['invalid_number']);
    expect(res.body.live_status).toBeUndefined();
    expect(t.hlr.queries()).toBe(before);
  });
});

describe('live status without an HLR provider', () => {
  let bare: TestNumbers;
  beforeAll(async () => {
    bare = await startTestNumbers({ noHlr: true });
  }, 60_000);
  afterAll(async () => bare?.stop());

  it('when no HLR is configured, then the base still resolves and live_status is unavailable', async () => {
    const acct = await bare.publishAccount(bare.account());
    const res = await bare.get(acct, live('46701234567'));
    expect(res.status).toBe(200);
    expect(res.body.network.service_provider.id).toBe('002');
    expect(res.body.live_status.state).toBe('unavailable');
  });
});
