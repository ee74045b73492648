import { type AccountState, Topics } from '@msg/contracts';
import { eventually } from '@msg/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callbackAbout, PASSWORD, startTestSms, type TestSms } from './support.js';

let sms: TestSms;
let acct: AccountState;

beforeAll(async () => {
  sms = await startTestSms();
  acct = await sms.publishAccount(sms.account());
}, 60_000);

afterAll(async () => {
  await sms?.stop();
});

const valid = { to: '+46701234567', message: 'Hej', from: 'Acme' };

async function sendOne(
  account: AccountState,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await sms.send(account, { ...valid, ...extra });
  expect(res.status).toBe(202);
  return res.body.messageId;
}

/** The message's status once it is `status`. */
async function statusBecomes(messageId: string, status: string, account = acct) {
  return eventually(async () => {
    const res = await sms.get(account, messageId);
    return res.body.status === status ? res.body : undefined;
  }, `${messageId} to become ${status}`);
}

describe('getSms', () => {
  it('when asked right after the send, then it is accepted with no optional fields', async () => {
    const messageId = await sendOne(acct, { message: '日'.repeat(71) });
    const res = await sms.get(acct, messageId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      messageId,
      status: 'accepted',
      to: '+46701234567',
      from: 'Acme',
      parts: 2,
      encoding: 'UCS-2',
      smscMessageIds: [],
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('when the connector reports submitted then delivered, then both show with ids and timestamps', async () => {
    const messageId = await sendOne(acct);
    const submittedAt = '2026-11-22T10:00:00.000Z';
    await sms.publishStatus({
      messageId,
      accountId: acct.id,
      state: 'submitted',
      smscMessageIds: ['smsc-1'],
      at: submittedAt,
    });
    expect(await statusBecomes(messageId, 'submitted')).toMatchObject({
      smscMessageIds: ['smsc-1'],
      submittedAt,
    });
    const completedAt = '2026-11-22T10:00:05.000Z';
    await sms.publishStatus({ messageId, accountId: acct.id, state: 'delivered', at: completedAt });
    const delivered = await statusBecomes(messageId, 'delivered');
    expect(delivered).toMatchObject({ smscMessageIds: ['smsc-1'], submittedAt, completedAt });
    expect(delivered.error).toBeUndefined();
  });

  it('when the connector reports a failure, then the status is failed with its error', async () => {
    const messageId = await sendOne(acct);
    const error = { smppStatus: 11, description: 'invalid destination address' };
    await sms.publishStatus({ messageId, accountId: acct.id, state: 'failed', error });
    expect(await statusBecomes(messageId, 'failed')).toMatchObject({
      error,
      completedAt: expect.any(String),
    });
  });

  it('when a stale submitted arrives after delivered, then it is ignored', async () => {
    const messageId = await sendOne(acct);
    await sms.publishStatus({ messageId, accountId: acct.id, state: 'delivered' });
    await statusBecomes(messageId, 'delivered');
    const stale = await sms.statusReports('stale');
    await sms.handled(1, () =>
      sms.publishStatus({
        messageId,
        accountId: acct.id,
        state: 'submitted',
        smscMessageIds: ['late'],
      }),
    );
    expect(await sms.statusReports('stale')).toBe(stale + 1);
    const res = await sms.get(acct, messageId);
    expect(res.body).toMatchObject({ status: 'delivered', smscMessageIds: [] });
    expect(res.body.submittedAt).toBeUndefined();
  });

  it('when a status event is delivered twice (same envelope id), then it is applied once', async () => {
    const messageId = await sendOne(acct, { callback_url: 'https://hooks.example.com/dup' });
    const stale = await sms.statusReports('stale');
    await sms.handled(3, async () => {
      const first = await sms.publishStatus({ messageId, accountId: acct.id, state: 'submitted' });
      // The redelivery finds 'submitted' reached already: a stale report, no second callback.
      await sms.publishStatus({ messageId, accountId: acct.id, state: 'submitted' }, first);
      await sms.publishStatus({ messageId, accountId: acct.id, state: 'expired' });
    });
    expect(await sms.statusReports('stale')).toBe(stale + 1);
    expect((await sms.get(acct, messageId)).body.status).toBe('expired');
    const callbacks = await eventually(() => {
      const found = sms.published(Topics.callbacks, callbackAbout(messageId));
      return found.length >= 2 ? found : undefined;
    }, 'two callbacks');
    await new Promise((r) => setTimeout(r, 300));
    expect(sms.callbackBodies(new Set([messageId])).map((b) => b.status)).toEqual([
      'submitted',
      'expired',
    ]);
    expect(callbacks).toHaveLength(2);
  });

  it('when the status event belongs to another owner (source batch), then it is left alone', async () => {
    const messageId = await sendOne(acct);
    const handled = await sms.statusReports();
    await sms.publishStatus({ messageId, accountId: acct.id, state: 'delivered', source: 'batch' });
    // Reports about one message are read in order: once this one is handled, the other was seen.
    await sms.handled(1, () =>
      sms.publishStatus({ messageId, accountId: acct.id, state: 'submitted' }),
    );
    expect((await sms.get(acct, messageId)).body.status).toBe('submitted');
    // The batch-owned report was passed over by the bus, never handled (counted) here.
    expect(await sms.statusReports()).toBe(handled + 1);
  });

  it("when another account's message or an unknown id is asked for, then 404", async () => {
    const messageId = await sendOne(acct);
    const other = await sms.publishAccount(sms.account());
    const foreign = await sms.get(other, messageId);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    expect((await sms.get(acct, crypto.randomUUID())).status).toBe(404);
  });

  it('when the id is not a uuid, then 400 naming messageId', async () => {
    const res = await sms.get(acct, 'not-a-uuid');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.details)).toContain('messageId');
  });

  it('when called without credentials, then 401 with a Basic challenge', async () => {
    const res = await request(sms.app).get(`/v1/sms/${crypto.randomUUID()}`);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic/);
    const wrong = await request(sms.app)
      .get(`/v1/sms/${crypto.randomUUID()}`)
      .auth(acct.name, `${PASSWORD}x`);
    expect(wrong.status).toBe(401);
  });
});

describe('status callbacks', () => {
  it('when the send had a callback_url, then each status change is a CallbackRequest to it', async () => {
    const url = 'https://hooks.example.com/sms/status?tag=1';
    const messageId = await sendOne(acct, { callback_url: url });
    const at = '2026-11-22T11:00:00.000Z';
    await sms.publishStatus({
      messageId,
      accountId: acct.id,
      state: 'submitted',
      smscMessageIds: ['a1', 'a2'],
      parts: 2,
      at,
    });
    const [callback] = await eventually(() => {
      const found = sms.published(Topics.callbacks, callbackAbout(messageId));
      return found.length > 0 ? found : undefined;
    }, 'the callback request');
    expect(callback?.key).toBe('https://hooks.example.com');
    expect(callback?.value).toMatchObject({ type: 'callback.request', accountId: acct.id });
    expect(callback?.value.payload).toEqual({
      callbackId: expect.any(String),
      accountId: acct.id,
      url,
      method: 'POST',
      body: {
        messageId,
        status: 'submitted',
        smscMessageIds: ['a1', 'a2'],
        parts: 1,
        at,
      },
      origin: { service: 'sms', kind: 'status' },
    });
  });

  it("when the send had no callback_url, then the account's delivery-report URL gets it", async () => {
    const reporting = await sms.publishAccount(
      sms.account({
        callbacks: {
          replyPathUrl: null,
          replyPathMethod: 'POST',
          deliveryReportUrl: 'http://reports.example.net:8080/dlr',
          voiceReportUrl: null,
        },
      }),
    );
    const messageId = await sendOne(reporting);
    await sms.publishStatus({
      messageId,
      accountId: reporting.id,
      state: 'failed',
      error: { receiptStat: 'UNDELIV', receiptError: '001', description: 'undeliverable' },
    });
    const [callback] = await eventually(() => {
      const found = sms.published(Topics.callbacks, callbackAbout(messageId));
      return found.length > 0 ? found : undefined;
    }, 'the callback request');
    expect(callback?.key).toBe('http://reports.example.net:8080');
    expect(callback?.value.payload).toMatchObject({
      url: 'http://reports.example.net:8080/dlr',
      body: {
        messageId,
        status: 'failed',
        error: { receiptStat: 'UNDELIV', receiptError: '001', description: 'undeliverable' },
      },
    });
  });

  it('when neither a callback_url nor a delivery-report URL exists, then no callback is queued', async () => {
    const messageId = await sendOne(acct);
    await sms.handled(1, () =>
      sms.publishStatus({ messageId, accountId: acct.id, state: 'delivered' }),
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(sms.published(Topics.callbacks, callbackAbout(messageId))).toEqual([]);
  });
});
