import {
  type AccountState,
  makeEvent,
  SMS_STATUS_EVENT,
  type SmsStatus,
  Topics,
} from '@msg/contracts';
import { isOptedOut, optOutMessage } from '@msg/optout';
import { eventually, type FakeBilling, startFakeBilling } from '@msg/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fallbackSmsId } from '../src/fallback/sms-fallback.js';
import { SERVICE_ACCOUNT, startTestRcs, type TestRcs } from './support.js';

const AGENT = 'sms-fallback-agent';

/** The webhook event inside a recorded rcs.events.v1 entry. */
const eventIn = (entry: { value: { payload: unknown } } | undefined) =>
  (entry?.value.payload as { event?: Record<string, unknown> } | undefined)?.event;
const FALLBACK = { sender: 'Acme', text: 'Your parcel is ready' };

/**
 * The SMS fallback end to end inside the service: a message accepted with sms_fallback is handed
 * to the fallback as the delivery worker does when the recipient is not RCS capable; the SMS goes
 * out on sms.outbound.v1 (the smsc-connector's input) and the outcome on rcs.events.v1. The
 * SMSC's verdict arrives on sms.status.v1 as the connector publishes it.
 */
describe('SMS fallback: send path (src/fallback/sms-fallback.ts)', () => {
  let rcs: TestRcs;
  let billing: FakeBilling;
  let acct: AccountState;
  let prepaid: AccountState;
  let recipientSeq = 0;

  beforeAll(async () => {
    billing = await startFakeBilling();
    rcs = await startTestRcs({
      perMinute: 10_000,
      env: { ADMIN_URL: billing.url, BILLING_INTERNAL_TOKEN: billing.token },
    });
    acct = await rcs.publishAccount(rcs.account({ name: 'fallback-sms' }));
    prepaid = await rcs.publishAccount(
      rcs.account({ name: 'fallback-prepaid', billing: { mode: 'prepaid', fundsAvailable: true } }),
    );
    // With credentials the delivery worker sends each message over RCS (state `sent`); the
    // tests then hand it to the fallback themselves, as the worker or the TTL sweeper would.
    await rcs.agent(AGENT, [acct, prepaid], { credentials: SERVICE_ACCOUNT });
    await rcs.smsFallback(acct, true);
    await rcs.smsFallback(prepaid, true);
  });

  afterAll(async () => {
    await rcs?.stop();
    await billing?.close();
  });

  /** Accepts a message with the fallback and answers it as the delivery worker hands it over. */
  async function accepted(from: AccountState, fallback = FALLBACK) {
    recipientSeq += 1;
    const recipient = `+4670174${String(recipientSeq).padStart(4, '0')}`;
    const res = await rcs.send(from, {
      recipient,
      agent_id: AGENT,
      message: { text: 'Hello' },
      client_message_id: `order-${recipientSeq}`,
      sms_fallback: fallback,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    return {
      id: res.body.message_id as string,
      accountId: from.id,
      agentId: AGENT,
      recipient,
      clientMessageId: `order-${recipientSeq}`,
      smsFallback: fallback,
    };
  }

  const stateOf = async (id: string) =>
    (
      await rcs.pool.query(
        `SELECT "state", "failure_reason" FROM "rcs"."messages" WHERE "id" = $1`,
        [id],
      )
    ).rows[0];
  const smsFor = (to: string) =>
    rcs.published.filter(
      (p) => p.topic === Topics.smsOutbound && (p.value.payload as { to: string }).to === to,
    );
  const eventsOf = (id: string) =>
    rcs.published
      .filter(
        (p) =>
          p.topic === Topics.rcsEvents &&
          (p.value.payload as { messageId?: string }).messageId === id,
      )
      .map((p) => (p.value.payload as { event: Record<string, unknown> }).event);

  /** The recipient sends STOP to the account: its opt-out, once the replica holds it. */
  async function optOut(account: AccountState, msisdn: string) {
    await rcs.bus.publish(Topics.optOuts, [
      optOutMessage({
        accountId: account.id,
        msisdn,
        optedOut: true,
        keyword: 'STOP',
        source: 'inbound',
        at: new Date().toISOString(),
      }),
    ]);
    await eventually(
      async () => (await isOptedOut(rcs.pool, 'rcs', account.id, msisdn)) || undefined,
      'the opt-out in the replica',
    );
  }

  it('when the recipient is not RCS capable, then the SMS goes on sms.outbound.v1 and sms.out.sent carries its id', async () => {
    const message = await accepted(acct);
    await rcs.service.smsFallback.send(message, 'not_capable');
    const [sms] = await eventually(async () => {
      const found = smsFor(message.recipient);
      return found.length > 0 ? found : undefined;
    }, 'the fallback SMS');
    const smsId = fallbackSmsId(message.id);
    expect(sms?.key).toBe(acct.id);
    expect(sms?.value.payload).toEqual({
      messageId: smsId,
      accountId: acct.id,
      source: 'rcs',
      from: 'Acme',
      to: message.recipient,
      text: FALLBACK.text,
      encoding: 'GSM-7',
      parts: 1,
      deliveryReport: true,
      throughputPerSecond: acct.smsThroughputPerSecond,
    });
    const [sent] = await rcs.publishedAbout(Topics.rcsEvents, message.id);
    expect(sent?.key).toBe(AGENT);
    expect(eventIn(sent)).toEqual({
      event_type: 'sms.out.sent',
      agent_id: AGENT,
      send_time: expect.any(String),
      event_id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      message_id: message.id,
      client_message_id: message.clientMessageId,
      sms_transaction_id: smsId,
    });
    expect(await stateOf(message.id)).toEqual({ state: 'fallback_sms', failure_reason: null });
  });

  it('when the trigger is delivered twice (or twice at once), then one SMS and one sms.out.sent', async () => {
    const message = await accepted(acct);
    await Promise.all([
      rcs.service.smsFallback.send(message, 'not_capable'),
      rcs.service.smsFallback.send(message, 'not_capable'),
    ]);
    await rcs.service.smsFallback.send(message, 'ttl_expired');
    await rcs.publishedAbout(Topics.rcsEvents, message.id);
    // The relay publishes in order: once an event enqueued after them is out, so would they be.
    const later = await rcs.send(acct, {
      recipient: '+46700000001',
      agent_id: AGENT,
      message: { text: 'x' },
      dry_run: true,
    });
    await rcs.publishedAbout(Topics.rcsEvents, later.body.message_id);
    expect(smsFor(message.recipient)).toHaveLength(1);
    expect(eventsOf(message.id)).toHaveLength(1);
  });

  it('when the recipient opted out of the account, then rcs.out.failed SMS_FALLBACK_REJECTED and no SMS', async () => {
    const message = await accepted(acct);
    await optOut(acct, message.recipient);
    await rcs.service.smsFallback.send(message, 'not_capable');
    const [failed] = await rcs.publishedAbout(Topics.rcsEvents, message.id);
    expect(eventIn(failed)).toMatchObject({
      event_type: 'rcs.out.failed',
      reason: 'SMS_FALLBACK_REJECTED',
      message_id: message.id,
    });
    expect(await stateOf(message.id)).toEqual({
      state: 'failed',
      failure_reason: 'SMS_FALLBACK_REJECTED',
    });
    expect(smsFor(message.recipient)).toHaveLength(0);
  });

  it('when a prepaid account has credits and the recipient opted out, then SMS_FALLBACK_REJECTED before any charge: no debit, no SMS', async () => {
    billing.setBalance(prepaid.id, 5);
    const message = await accepted(prepaid);
    await optOut(prepaid, message.recipient);
    const calls = billing.calls;
    await rcs.service.smsFallback.send(message, 'not_capable');
    const [failed] = await rcs.publishedAbout(Topics.rcsEvents, message.id);
    expect(eventIn(failed)).toMatchObject({
      event_type: 'rcs.out.failed',
      reason: 'SMS_FALLBACK_REJECTED',
    });
    expect(billing.calls).toBe(calls);
    expect(billing.debited(prepaid.id)).toEqual([]);
    expect(billing.balance(prepaid.id)).toBe(5);
    expect(smsFor(message.recipient)).toHaveLength(0);
  });

  it('when the SMS centre fails the SMS, then rcs.out.failed SMS_FALLBACK_FAILED (once per report redelivered)', async () => {
    const message = await accepted(acct);
    await rcs.service.smsFallback.send(message, 'not_capable');
    await rcs.publishedAbout(Topics.rcsEvents, message.id);
    const status: SmsStatus = {
      messageId: fallbackSmsId(message.id),
      accountId: acct.id,
      source: 'rcs',
      state: 'failed',
      smscMessageIds: ['smsc-1'],
      parts: 1,
      at: new Date().toISOString(),
      error: { receiptStat: 'UNDELIV', receiptError: '001', description: 'undeliverable' },
    };
    const event = makeEvent(SMS_STATUS_EVENT, status, { accountId: acct.id });
    // As the connector publishes it, keyed by message id; the same report twice.
    await rcs.bus.publish(Topics.smsStatus, [
      { key: status.messageId, value: event },
      { key: status.messageId, value: event },
    ]);
    const [, failed] = await rcs.publishedAbout(Topics.rcsEvents, message.id, 2);
    expect(eventIn(failed)).toMatchObject({
      event_type: 'rcs.out.failed',
      reason: 'SMS_FALLBACK_FAILED',
      message_id: message.id,
      client_message_id: message.clientMessageId,
    });
    expect(await stateOf(message.id)).toEqual({
      state: 'failed',
      failure_reason: 'SMS_FALLBACK_FAILED',
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(eventsOf(message.id).map((e) => e.event_type)).toEqual([
      'sms.out.sent',
      'rcs.out.failed',
    ]);
  });

  it('when a prepaid balance covers the SMS, then it is paid once by its id; when empty, then SMS_FALLBACK_REJECTED', async () => {
    billing.setBalance(prepaid.id, 1);
    const paid = await accepted(prepaid);
    await rcs.service.smsFallback.send(paid, 'not_capable');
    await rcs.service.smsFallback.send(paid, 'not_capable');
    expect(billing.debited(prepaid.id)).toEqual([fallbackSmsId(paid.id)]);
    expect(billing.balance(prepaid.id)).toBe(0);
    const [sent] = await rcs.publishedAbout(Topics.rcsEvents, paid.id);
    expect(eventIn(sent)).toMatchObject({
      event_type: 'sms.out.sent',
    });

    const unpaid = await accepted(prepaid);
    await rcs.service.smsFallback.send(unpaid, 'not_capable');
    const [failed] = await rcs.publishedAbout(Topics.rcsEvents, unpaid.id);
    expect(eventIn(failed)).toMatchObject({
      event_type: 'rcs.out.failed',
      reason: 'SMS_FALLBACK_REJECTED',
    });
    expect(smsFor(unpaid.recipient)).toHaveLength(0);
  });

  it('when a prepaid message is triggered twice at once, then one SMS, paid once and not refunded', async () => {
    billing.setBalance(prepaid.id, 2);
    const before = billing.debited(prepaid.id);
    const message = await accepted(prepaid);
    await Promise.all([
      rcs.service.smsFallback.send(message, 'not_capable'),
      rcs.service.smsFallback.send(message, 'rbm_rejected'),
    ]);
    const [sent] = await rcs.publishedAbout(Topics.rcsEvents, message.id);
    expect(eventIn(sent)).toMatchObject({ event_type: 'sms.out.sent' });
    expect(billing.debited(prepaid.id)).toEqual([...before, fallbackSmsId(message.id)]);
    expect(billing.balance(prepaid.id)).toBe(1);
  });

  /**
   * Accepts a message with `fallback` to a capable recipient (the delivery worker sends it over
   * RCS), changes the account as `change` says, then hands the message to the fallback as the
   * worker would on an RBM refusal; answers the message's outcome event.
   */
  async function fallbackAfterChange(
    account: AccountState,
    agentId: string,
    recipient: string,
    fallback: typeof FALLBACK,
    change: Partial<AccountState>,
  ) {
    await rcs.agent(agentId, [account], { credentials: SERVICE_ACCOUNT });
    await rcs.smsFallback(account, true);
    const res = await rcs.send(account, {
      recipient,
      agent_id: agentId,
      message: { text: 'Hello' },
      sms_fallback: fallback,
    });
    expect(res.status).toBe(202);
    await rcs.publishAccount({ ...account, ...change, version: account.version + 1 });
    const message = {
      id: res.body.message_id,
      accountId: account.id,
      agentId,
      recipient,
      clientMessageId: null,
      smsFallback: fallback,
    };
    await rcs.service.smsFallback.send(message, 'rbm_rejected');
    const [outcome] = await rcs.publishedAbout(Topics.rcsEvents, message.id);
    return eventIn(outcome);
  }

  it('when the sender is no longer registered to the account when the SMS is due, then SMS_FALLBACK_REJECTED and no SMS (issue 23)', async () => {
    const acme = await rcs.publishAccount(rcs.account({ senderIds: ['ACME'] }));
    const fallback = { sender: 'ACME', text: 'Hej' };
    const outcome = await fallbackAfterChange(acme, 'acme-agent', '+46701749997', fallback, {
      senderIds: ['OTHER'],
    });
    expect(outcome).toMatchObject({ reason: 'SMS_FALLBACK_REJECTED' });
    expect(smsFor('+46701749997')).toHaveLength(0);
  });

  it('when the account was disabled meanwhile, then SMS_FALLBACK_REJECTED', async () => {
    const later = await rcs.publishAccount(rcs.account({ name: 'fallback-later' }));
    const outcome = await fallbackAfterChange(later, 'later-agent', '+46701749998', FALLBACK, {
      status: 'disabled',
    });
    expect(outcome).toMatchObject({ reason: 'SMS_FALLBACK_REJECTED' });
  });
});
