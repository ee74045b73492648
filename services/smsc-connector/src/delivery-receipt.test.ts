import { describe, expect, it } from 'vitest';
import { combinePartStates, isReceipt, parseDeliveryReceipt } from './delivery-receipt.js';

const text = (stat: string) =>
  `id:3fa9c1000000002a sub:001 dlvrd:000 submit date:2611221140 done date:2611221141 stat:${stat} err:001 text:Hello`;

describe('isReceipt', () => {
  it('when esm_class says SMSC delivery receipt or a receipted_message_id is present, then it is a receipt', () => {
    expect(isReceipt(0x04, undefined)).toBe(true);
    expect(isReceipt(0x00, 'abc')).toBe(true);
    expect(isReceipt(0x00, undefined)).toBe(false);
    expect(isReceipt(0x40, undefined)).toBe(false);
  });
});

describe('parseDeliveryReceipt', () => {
  it('when the TLVs are present, then they win over the text', () => {
    expect(
      parseDeliveryReceipt({
        receiptedMessageId: 'tlv-id',
        messageState: 2,
        text: text('UNDELIV'),
      }),
    ).toEqual({ smscMessageId: 'tlv-id', state: 'delivered', stat: 'UNDELIV', err: '001' });
  });

  it.each([
    ['DELIVRD', 'delivered'],
    ['EXPIRED', 'expired'],
    ['UNDELIV', 'failed'],
    ['REJECTD', 'failed'],
    ['DELETED', 'failed'],
    ['UNKNOWN', 'failed'],
  ])('when only the text says stat:%s, then the part is %s', (stat, state) => {
    expect(parseDeliveryReceipt({ text: text(stat) })).toEqual({
      smscMessageId: '3fa9c1000000002a',
      state,
      stat,
      err: '001',
    });
  });

  it.each([
    [3, 'expired'],
    [4, 'failed'],
    [5, 'failed'],
    [7, 'failed'],
    [8, 'failed'],
  ])('when message_state is %i, then the part is %s', (messageState, state) => {
    expect(parseDeliveryReceipt({ receiptedMessageId: 'x', messageState, text: '' })?.state).toBe(
      state,
    );
  });

  it('when the receipt is an intermediate one (ENROUTE), then it is not a final receipt', () => {
    expect(parseDeliveryReceipt({ messageState: 1, text: text('ENROUTE') })).toBeUndefined();
  });
});

describe('combinePartStates', () => {
  it('when all parts are delivered, then delivered; any failed, then failed; else expired', () => {
    expect(combinePartStates(['delivered', 'delivered'])).toBe('delivered');
    expect(combinePartStates(['delivered', 'expired'])).toBe('expired');
    expect(combinePartStates(['expired', 'failed'])).toBe('failed');
  });
});
