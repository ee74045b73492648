import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InboundHarness, startInboundHarness, until } from './inbound-support.js';

let h: InboundHarness;

beforeAll(async () => {
  h = await startInboundHarness();
});

afterAll(async () => {
  await h?.stop();
});

const reports = (transactionId: string) =>
  h.receiver.received.filter((r) => r.body.includes(transactionId)).map((r) => JSON.parse(r.body));

async function stateOf(transactionId: string): Promise<string | undefined> {
  const { rows } = await h.pool.query<{ state: string }>(
    `SELECT "state" FROM "replypath"."messages" WHERE "transaction_id" = $1`,
    [transactionId],
  );
  return rows[0]?.state;
}

describe('delivery reports (sms.status.v1 of replypath messages)', () => {
  it('when a DLR=1 message is delivered, then its state is delivered and the report is POSTed to the delivery-report URL', async () => {
    const account = h.account({ deliveryReportUrl: `${h.receiver.url}/dlr` });
    const sent = await h.reserve({ account, dlr: true });

    await h.status({ messageId: sent.transactionId, accountId: account.id, state: 'submitted' });
    const delivered = await h.status({
      messageId: sent.transactionId,
      accountId: account.id,
      state: 'delivered',
    });

    await until(() => expect(reports(sent.transactionId)).toHaveLength(1));
    expect(reports(sent.transactionId)[0]).toEqual({
      TransactionId: sent.transactionId,
      DestinationAddress: sent.recipient,
      OriginatorAddress: sent.number,
      Status: 'DELIVERED',
      StatusTime: delivered.payload.at,
    });
    expect(h.receiver.received.find((r) => r.body.includes(sent.transactionId))?.url.pathname).toBe(
      '/dlr',
    );
    expect(await stateOf(sent.transactionId)).toBe('delivered');
  });

  it('when a DLR=1 message fails, then the report says FAILED with the reason', async () => {
    const account = h.account({ deliveryReportUrl: `${h.receiver.url}/dlr` });
    const sent = await h.reserve({ account, dlr: true, source: 'replypath-legacy' });

    await h.status({
      messageId: sent.transactionId,
      accountId: account.id,
      state: 'failed',
      source: 'replypath-legacy',
      error: { receiptStat: 'UNDELIV', description: 'undeliverable' },
    });

    await until(() => expect(reports(sent.transactionId)).toHaveLength(1));
    expect(reports(sent.transactionId)[0]).toMatchObject({
      Status: 'FAILED',
      Error: 'undeliverable',
    });
  });

  it('when the report of a DLR=1 message arrives after its record was removed (VP 0), then it is still forwarded', async () => {
    const account = h.account({ deliveryReportUrl: `${h.receiver.url}/dlr` });
    const sent = await h.reserve({ account, dlr: true, vpMs: 0 });
    await h.sweep();
    expect(await stateOf(sent.transactionId)).toBeUndefined();

    await h.status({ messageId: sent.transactionId, accountId: account.id, state: 'submitted' });
    await h.status({ messageId: sent.transactionId, accountId: account.id, state: 'delivered' });

    await until(() => expect(reports(sent.transactionId)).toHaveLength(1));
    expect(reports(sent.transactionId)[0]).toMatchObject({
      TransactionId: sent.transactionId,
      DestinationAddress: sent.recipient,
      OriginatorAddress: sent.number,
      Status: 'DELIVERED',
    });
  });

  it('when a DLR=0 message is delivered, then its state changes and no report is sent', async () => {
    const account = h.account({ deliveryReportUrl: `${h.receiver.url}/dlr` });
    const sent = await h.reserve({ account, dlr: false });

    await h.status({ messageId: sent.transactionId, accountId: account.id, state: 'delivered' });

    await until(async () => expect(await stateOf(sent.transactionId)).toBe('delivered'));
    expect(
      h.requests.filter((r) => JSON.stringify(r.body ?? '').includes(sent.transactionId)),
    ).toEqual([]);
  });

  it('when the account has no delivery-report URL, then the state changes and nothing is sent', async () => {
    const account = h.account({ deliveryReportUrl: null });
    const sent = await h.reserve({ account, dlr: true });

    await h.status({ messageId: sent.transactionId, accountId: account.id, state: 'expired' });

    await until(async () => expect(await stateOf(sent.transactionId)).toBe('expired'));
    expect(
      h.requests.filter((r) => JSON.stringify(r.body ?? '').includes(sent.transactionId)),
    ).toEqual([]);
  });

  it('when the same report arrives twice or a late submitted follows delivered, then one report is sent and the state stays delivered', async () => {
    const account = h.account({ deliveryReportUrl: `${h.receiver.url}/dlr` });
    const sent = await h.reserve({ account, dlr: true });
    const about = { messageId: sent.transactionId, accountId: account.id };

    const event = await h.status({ ...about, state: 'delivered' });
    await h.republishStatus(event);
    await h.status({ ...about, state: 'submitted' });
    // A report naming another account with this message id changes nothing either.
    const last = await h.status({ ...about, accountId: randomUUID(), state: 'failed' });

    // Reports about one message are handled in order: once the last is, all were.
    await until(async () => expect(await h.handled(last.id)).toBe(true));
    await until(() => expect(reports(sent.transactionId)).toHaveLength(1));
    expect(reports(sent.transactionId)[0]).toMatchObject({ Status: 'DELIVERED' });
    expect(await stateOf(sent.transactionId)).toBe('delivered');
  });

  it('when the report is about a message of another service, then it is ignored', async () => {
    const account = h.account({ deliveryReportUrl: `${h.receiver.url}/dlr` });
    const sent = await h.reserve({ account, dlr: true });
    const about = { messageId: sent.transactionId, accountId: account.id };

    await h.status({ ...about, state: 'delivered', source: 'sms' });
    // Handled after the one before (same message): had that applied, submitted could not follow.
    await h.status({ ...about, state: 'submitted' });

    await until(async () => expect(await stateOf(sent.transactionId)).toBe('submitted'));
    expect(reports(sent.transactionId)).toEqual([]);
  });
});
