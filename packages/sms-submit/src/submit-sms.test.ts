import type { AccountState } from '@msg/contracts';
import { accountState } from '@msg/testing';
import { describe, expect, it } from 'vitest';
import type { PrepaidBilling } from './prepaid-billing.js';
import { type SmsToSubmit, type SubmitRequest, submitSms } from './submit-sms.js';

/** A prepaid balance in memory: what was charged and refunded, in order. */
function ledger(credits: number) {
  let balance = credits;
  const charged: string[] = [];
  const refunded: string[] = [];
  const partsOf = new Map<string, number>();
  const billing: PrepaidBilling = {
    async chargeInOrder(_account, items) {
      let stopped = false;
      return items.map(({ reference, parts }) => {
        if (stopped || balance < parts) {
          stopped = true;
          return false;
        }
        balance -= parts;
        charged.push(reference);
        partsOf.set(reference, parts);
        return true;
      });
    },
    async refund(_account, reference) {
      refunded.push(reference);
      balance += partsOf.get(reference) ?? 0;
      return true;
    },
  };
  return { billing, charged, refunded, balance: () => balance };
}

const account: AccountState = accountState({ id: 'acct-1', smsThroughputPerSecond: 30 });
const sms = (n: number, overrides: Partial<SmsToSubmit> = {}): SmsToSubmit => ({
  messageId: `m${n}`,
  from: 'ACME',
  to: `+4670000000${n}`,
  text: 'Hej',
  encoding: 'GSM-7',
  parts: 2,
  deliveryReport: true,
  ...overrides,
});

function request(
  messages: SmsToSubmit[],
  overrides: Partial<SubmitRequest<string[]>> = {},
): SubmitRequest<string[]> {
  return {
    account,
    source: 'batch',
    refuse: 'each',
    messages,
    optedOut: async () => new Set(),
    write: async ({ outbound }) => outbound().messages.map((m) => m.value.id),
    ...overrides,
  };
}

describe('submitSms', () => {
  it('when a recipient opted out, then it is refused before anything is charged, and the rest go', async () => {
    const { billing, charged } = ledger(10);
    const order: string[] = [];
    const outcome = await submitSms(billing, {
      ...request([sms(1), sms(2)]),
      optedOut: async (recipients) => {
        order.push(`optedOut(${recipients.length}) charged=${charged.length}`);
        return new Set([sms(1).to]);
      },
      write: async ({ queued, refused }) => {
        order.push('write');
        return [...queued.map((q) => q.messageId), ...refused.map((r) => r.reason)];
      },
    });
    expect(order).toEqual(['optedOut(2) charged=0', 'write']);
    expect(charged).toEqual(['m2']);
    expect(outcome).toMatchObject({ ok: true, result: ['m2', 'opted_out'] });
  });

  it('when refuse is all and one recipient opted out, then nothing is charged or written', async () => {
    const { billing, charged } = ledger(10);
    let written = false;
    const outcome = await submitSms(billing, {
      ...request([sms(1), sms(2)], { refuse: 'all' }),
      optedOut: async () => new Set([sms(2).to]),
      write: async () => {
        written = true;
        return [];
      },
    });
    expect(outcome).toEqual({
      ok: false,
      refused: [{ index: 1, sms: sms(2), reason: 'opted_out' }],
    });
    expect(charged).toEqual([]);
    expect(written).toBe(false);
  });

  it('when the balance pays for some, then refuse each sends those in order and refuses every later one as insufficient_funds', async () => {
    const { billing } = ledger(3);
    // m3 alone would fit the 1 credit left, but it comes after m2, which did not.
    const outcome = await submitSms(billing, request([sms(1), sms(2), sms(3, { parts: 1 })]));
    expect(outcome.ok && outcome.result.length).toBe(1);
    expect(outcome.refused.map((r) => [r.sms.messageId, r.reason])).toEqual([
      ['m2', 'insufficient_funds'],
      ['m3', 'insufficient_funds'],
    ]);
  });

  it('when the balance pays for some and refuse is all, then what was paid goes back and nothing is written', async () => {
    const { billing, charged, refunded, balance } = ledger(3);
    const outcome = await submitSms(billing, request([sms(1), sms(2)], { refuse: 'all' }));
    expect(outcome.ok).toBe(false);
    expect(outcome.refused.map((r) => r.reason)).toEqual(['insufficient_funds']);
    expect(refunded).toEqual(charged);
    expect(balance()).toBe(3);
  });

  it('when the write throws, then every charge goes back and the error reaches the caller', async () => {
    const { billing, refunded, balance } = ledger(10);
    const failing = request([sms(1), sms(2)], {
      write: async () => {
        throw new Error('database refused');
      },
    });
    await expect(submitSms(billing, failing)).rejects.toThrow('database refused');
    expect(refunded).toEqual(['m1', 'm2']);
    expect(balance()).toBe(10);
  });

  it('when the write did not take the messages, then their charges go back', async () => {
    const { billing, refunded } = ledger(10);
    const outcome = await submitSms(billing, {
      ...request([sms(1, { billingReference: 'ref-1' })]),
      written: () => false,
    });
    expect(outcome.ok).toBe(true);
    expect(refunded).toEqual(['ref-1']);
  });

  it('when messages are queued, then each outbound event carries the account, source, SMS fields and key', async () => {
    const { billing } = ledger(10);
    const outcome = await submitSms(billing, {
      ...request([sms(1, { validityMinutes: 60 }), sms(2, { from: undefined })], {
        traceId: 'trace-1',
      }),
      write: async ({ outbound }) =>
        outbound(new Map([['m2', '+46700000099']])).messages.map((m) => ({
          key: m.key,
          type: m.value.type,
          traceId: m.value.traceId,
          payload: m.value.payload,
        })) as never,
    });
    expect(outcome.ok && outcome.result).toEqual([
      {
        key: 'acct-1',
        type: 'sms.outbound',
        traceId: 'trace-1',
        payload: {
          messageId: 'm1',
          accountId: 'acct-1',
          source: 'batch',
          from: 'ACME',
          to: '+46700000001',
          text: 'Hej',
          encoding: 'GSM-7',
          parts: 2,
          deliveryReport: true,
          validityMinutes: 60,
          throughputPerSecond: 30,
        },
      },
      expect.objectContaining({
        payload: expect.objectContaining({ messageId: 'm2', from: '+46700000099' }),
      }),
    ]);
  });

  it('when a message has no sender and the write names none, then building its event fails', async () => {
    const { billing } = ledger(10);
    await expect(submitSms(billing, request([sms(1, { from: undefined })]))).rejects.toThrow(
      'no sender for m1',
    );
  });
});
