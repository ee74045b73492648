import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type HlrSimulator, startHlrSimulator } from '../src/index.js';
import { basic, CREDENTIALS, call } from './support.js';

let hlr: HlrSimulator;

beforeAll(async () => {
  hlr = await startHlrSimulator({ credentials: CREDENTIALS });
});
afterAll(() => hlr.close());
beforeEach(() => hlr.reset());

describe('/control', () => {
  it('when lookups were made, then GET /control/queries counts them in all and per number', async () => {
    await call(`${hlr.url}/v1/hlr/46701234567`, { authorization: basic(CREDENTIALS) });
    expect((await call(`${hlr.url}/control/queries`)).body).toEqual({ count: 1 });
    expect((await call(`${hlr.url}/control/queries?msisdn=46701234567`)).body).toEqual({
      msisdn: '46701234567',
      count: 1,
    });
  });

  it('when PUT /control/numbers/{msisdn} sets a status, then lookups answer it', async () => {
    const put = await call(`${hlr.url}/control/numbers/46701234567`, {
      method: 'PUT',
      body: { status: 'absent' },
    });
    expect(put).toMatchObject({ status: 200, body: { msisdn: '46701234567', status: 'absent' } });
    const { body } = await call(`${hlr.url}/v1/hlr/46701234567`, {
      authorization: basic(CREDENTIALS),
    });
    expect(body).toMatchObject({ status: 'absent' });
  });

  it('when PUT sets an unknown status, then the answer is 400', async () => {
    const put = await call(`${hlr.url}/control/numbers/46701234567`, {
      method: 'PUT',
      body: { status: 'gone' },
    });
    expect(put.status).toBe(400);
  });

  it('when POST /control/reset is called, then overrides and counts are gone', async () => {
    hlr.setStatus('46701234567', 'unavailable');
    await call(`${hlr.url}/v1/hlr/46701234567`, { authorization: basic(CREDENTIALS) });
    expect((await call(`${hlr.url}/control/reset`, { method: 'POST' })).status).toBe(204);
    expect(hlr.queries()).toBe(0);
    const { status } = await call(`${hlr.url}/v1/hlr/46701234567`, {
      authorization: basic(CREDENTIALS),
    });
    expect(status).toBe(200);
  });
});
