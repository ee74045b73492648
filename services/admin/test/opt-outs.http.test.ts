import { Topics } from '@msg/contracts';
import { optOutEventFor } from '@msg/optout';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_TOKEN, startTestAdmin } from './support.js';

let admin: Awaited<ReturnType<typeof startTestAdmin>>;
const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
const base = '/internal/v1/accounts';
let counter = 0;

beforeAll(async () => {
  admin = await startTestAdmin();
}, 60_000);
afterAll(async () => {
  await admin?.stop();
});

const api = () => request(admin.app);
async function create(body: Record<string, unknown> = {}) {
  counter += 1;
  const res = await api()
    .post(base)
    .set(auth)
    .send({ name: `optout${Date.now().toString(36)}${counter}`, ...body });
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string; optOutKeywords: string[]; version: number };
}
const list = async (account: string) => {
  const res = await api().get(`${base}/${account}/opt-outs`).set(auth);
  expect(res.status).toBe(200);
  return res.body as { optOuts: { msisdn: string; source: string }[]; total: number };
};

describe('addOptOut, listOptOuts, removeOptOut', () => {
  it('when an operator adds a recipient in national form, then it is listed as E.164 and published on optouts.v1', async () => {
    const account = await create();
    const added = await api().put(`${base}/${account.name}/opt-outs/070-123 45 67`).set(auth);
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ msisdn: '+46701234567', source: 'operator', keyword: null });
    expect(await list(account.id)).toMatchObject({
      total: 1,
      optOuts: [{ msisdn: '+46701234567', source: 'operator' }],
    });
    await vi.waitFor(() =>
      expect(admin.optOuts).toContainEqual(
        expect.objectContaining({
          accountId: account.id,
          msisdn: '+46701234567',
          optedOut: true,
          source: 'operator',
        }),
      ),
    );
  });

  it('when added twice, then the entry stays as it was and only one change is published', async () => {
    const account = await create();
    const first = await api().put(`${base}/${account.id}/opt-outs/+46701234568`).set(auth);
    const again = await api().put(`${base}/${account.id}/opt-outs/+46701234568`).set(auth);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    await vi.waitFor(() =>
      expect(admin.optOuts.filter((c) => c.accountId === account.id)).toHaveLength(1),
    );
  });

  it('when removed, then it is off the list, an opt-in is published, and removing again is 404', async () => {
    const account = await create();
    await api().put(`${base}/${account.id}/opt-outs/+46701234569`).set(auth);
    const removed = await api().delete(`${base}/${account.id}/opt-outs/+46701234569`).set(auth);
    expect(removed.status).toBe(204);
    expect(await list(account.id)).toEqual({ optOuts: [], total: 0 });
    await vi.waitFor(() =>
      expect(admin.optOuts).toContainEqual(
        expect.objectContaining({ accountId: account.id, optedOut: false, source: 'operator' }),
      ),
    );
    const again = await api().delete(`${base}/${account.id}/opt-outs/+46701234569`).set(auth);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('NOT_FOUND');
  });

  it('when another service publishes an inbound STOP, then the operators see it on the list', async () => {
    const account = await create();
    const stop = optOutEventFor(
      {
        from: '+46701230000',
        to: '+46765550100',
        text: 'Stopp',
        receivedAt: new Date().toISOString(),
      },
      account.id,
    );
    if (!stop) throw new Error('STOPP is a stop word');
    await admin.bus.publish(Topics.optOuts, [stop]);
    await vi.waitFor(async () =>
      expect((await list(account.id)).optOuts).toEqual([
        expect.objectContaining({ msisdn: '+46701230000', source: 'inbound', keyword: 'STOPP' }),
      ]),
    );
  });

  it('when an inbound STOP carries a time ahead of the clock, then the operator removal still wins', async () => {
    const account = await create();
    const ahead = new Date(Date.now() + 60_000).toISOString();
    const stop = optOutEventFor(
      { from: '+46701230001', to: '+46765550100', text: 'STOP', receivedAt: ahead },
      account.id,
    );
    if (!stop) throw new Error('STOP is a stop word');
    await admin.bus.publish(Topics.optOuts, [stop]);
    await vi.waitFor(async () => expect((await list(account.id)).total).toBe(1));
    expect(
      (await api().delete(`${base}/${account.id}/opt-outs/+46701230001`).set(auth)).status,
    ).toBe(204);
    expect(await list(account.id)).toEqual({ optOuts: [], total: 0 });
    await vi.waitFor(() =>
      expect(admin.optOuts).toContainEqual(
        expect.objectContaining({ accountId: account.id, optedOut: false }),
      ),
    );
    const removal = admin.optOuts.find((c) => c.accountId === account.id && !c.optedOut);
    expect(Date.parse(removal?.at ?? '')).toBeGreaterThan(Date.parse(ahead));
  });

  it('when the number, the account or the paging is wrong, then a 4xx naming it', async () => {
    const account = await create();
    const badNumber = await api().put(`${base}/${account.id}/opt-outs/12`).set(auth);
    expect(badNumber.status).toBe(400);
    expect(badNumber.body.details[0].loc).toEqual(['path', 'msisdn']);
    const unknown = await api().put(`${base}/no-such-account/opt-outs/+46701234567`).set(auth);
    expect(unknown.status).toBe(404);
    const paging = await api().get(`${base}/${account.id}/opt-outs?limit=0`).set(auth);
    expect(paging.status).toBe(400);
    expect(JSON.stringify(paging.body)).toContain('limit');
    const noToken = await api().get(`${base}/${account.id}/opt-outs`);
    expect(noToken.status).toBe(401);
  });
});

describe('optOutKeywords (per-account stop words)', () => {
  it('when set, then shown and published on accounts.v1; when cleared, then empty', async () => {
    const account = await create({ optOutKeywords: ['nej tack', 'SLUTA'] });
    expect(account.optOutKeywords).toEqual(['nej tack', 'SLUTA']);
    expect((await admin.publishedState(account.id, 1)).optOutKeywords).toEqual([
      'nej tack',
      'SLUTA',
    ]);
    const cleared = await api()
      .patch(`${base}/${account.id}`)
      .set(auth)
      .send({ optOutKeywords: [] });
    expect(cleared.body.optOutKeywords).toEqual([]);
    expect((await admin.publishedState(account.id, 2)).optOutKeywords).toEqual([]);
  });

  it.each([
    [['start'], 'start_word'],
    [['Unstop!'], 'start_word'],
    [['  '], 'empty'],
    [['x'.repeat(41)], 'maxLength'],
    [Array.from({ length: 21 }, (_, i) => `word${i}`), 'maxItems'],
  ])(
    'when the words are %j, then 400 naming optOutKeywords and the rule %s',
    async (words, rule) => {
      counter += 1;
      const res = await api()
        .post(base)
        .set(auth)
        .send({ name: `optoutbad${Date.now().toString(36)}${counter}`, optOutKeywords: words });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain('optOutKeywords');
      expect(JSON.stringify(res.body)).toContain(rule);
    },
  );
});
