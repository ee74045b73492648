import got, { type Got } from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Platform, startEmbedded } from './platform.js';

/**
 * Opt-out end to end on the embedded defaults (issue 12, beyond the specification): a STOP sent
 * from a phone to the SMSC simulator reaches the sms service as sms.inbound.v1 (through the
 * smsc-connector), which refuses the next send through the gateway and publishes optouts.v1;
 * admin's operator list shows it; the operator's removal lets sends through again.
 */
async function eventually<T>(
  attempt: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await attempt();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let platform: Platform;
let gateway: Got;
let admin: Got;
let smsc: Got;
const account = { name: `optoute2e${Date.now().toString(36)}`, password: 'e2e-password-123' };
const NUMBER = '+46700000123';
const PHONE = '+46701239001';

beforeAll(async () => {
  platform = await startEmbedded();
  smsc = got.extend({ prefixUrl: platform.smscControlUrl ?? '', responseType: 'json' });
  admin = got.extend({
    prefixUrl: `${platform.adminUrl}/internal/v1/accounts`,
    headers: { authorization: `Bearer ${platform.adminToken}` },
    throwHttpErrors: false,
    responseType: 'json',
  });
  const created = await admin.post('', {
    json: { name: account.name, password: account.password, permissions: ['sms'] },
  });
  expect(created.statusCode).toBe(201);
  gateway = got.extend({
    prefixUrl: platform.gatewayUrl,
    username: account.name,
    password: account.password,
    throwHttpErrors: false,
    retry: { limit: 0 },
    responseType: 'json',
  });
  // The account reaches the sms service over the bus.
  await eventually(async () => {
    const res = await gateway.get('v1/sms/00000000-0000-4000-8000-000000000000');
    return res.statusCode === 404 ? true : undefined;
  });
}, 180_000);

afterAll(async () => {
  await platform?.stop();
}, 60_000);

const send = () =>
  gateway.post<{ code?: string; details?: { loc: string[]; type: string }[] }>('v1/sms/send', {
    json: { to: PHONE, from: NUMBER, message: 'Spring offer' },
  });

describe('opt-out through the SMSC, the gateway and admin', () => {
  it('when the phone replies STOP, then sends to it are refused, admin lists it, and the operator can lift it', async () => {
    expect((await send()).statusCode).toBe(202);

    const inbound = await smsc.post('inbound', { json: { from: PHONE, to: NUMBER, text: 'Stop' } });
    expect(inbound.statusCode).toBe(202);

    const refused = await eventually(async () => {
      const res = await send();
      return res.statusCode === 400 ? res : undefined;
    });
    expect(refused.body).toMatchObject({
      code: 'RECIPIENT_OPTED_OUT',
      details: [{ loc: ['body', 'to'], type: 'opted_out' }],
    });

    const listed = await eventually(async () => {
      const res = await admin.get<{ optOuts: { msisdn: string; source: string }[] }>(
        `${account.name}/opt-outs`,
      );
      return res.body.optOuts.length > 0 ? res.body.optOuts : undefined;
    });
    expect(listed).toEqual([
      expect.objectContaining({ msisdn: PHONE, source: 'inbound', keyword: 'STOP' }),
    ]);

    expect((await admin.delete(`${account.name}/opt-outs/${PHONE}`)).statusCode).toBe(204);
    const allowed = await eventually(async () => {
      const res = await send();
      return res.statusCode === 202 ? res : undefined;
    });
    expect(allowed.statusCode).toBe(202);
  });
});
