import type { SmsStatus } from '@msg/contracts';
import { describe, expect, it } from 'vitest';
import { deliveryReportRequest } from './delivery-report.js';

const message = {
  transactionId: '5f0c3c1e-8d0a-4c55-9a57-0d6f1a7e2b11',
  accountId: 'a-1',
  recipient: '+46701234567',
  originator: '+46701740605',
};

function status(state: SmsStatus['state'], error?: SmsStatus['error']): SmsStatus {
  return {
    messageId: message.transactionId,
    accountId: 'a-1',
    source: 'replypath',
    state,
    smscMessageIds: ['x'],
    parts: 1,
    at: '2026-11-24T08:00:00Z',
    ...(error && { error }),
  };
}

describe('deliveryReportRequest', () => {
  it.each([
    ['delivered', 'DELIVERED'],
    ['failed', 'FAILED'],
    ['expired', 'EXPIRED'],
  ] as const)('when the final state is %s, then the report says %s', (state, Status) => {
    expect(deliveryReportRequest('https://example.com/dlr', message, status(state), 'e-1')).toEqual(
      {
        callbackId: 'replypath-report-e-1',
        accountId: 'a-1',
        url: 'https://example.com/dlr',
        method: 'POST',
        body: {
          TransactionId: message.transactionId,
          DestinationAddress: '+46701234567',
          OriginatorAddress: '+46701740605',
          Status,
          StatusTime: '2026-11-24T08:00:00.000Z',
        },
        origin: { service: 'replypath', kind: 'delivery-report' },
      },
    );
  });

  it('when the SMS centre said why it failed, then Error carries it', () => {
    const request = deliveryReportRequest(
      'https://example.com/dlr',
      message,
      status('failed', { receiptStat: 'UNDELIV', description: 'undeliverable' }),
      'e-2',
    );
    expect(request?.body).toMatchObject({ Status: 'FAILED', Error: 'undeliverable' });
  });

  it('when the state is submitted or there is no usable URL, then nothing is reported', () => {
    expect(
      deliveryReportRequest('https://example.com/dlr', message, status('submitted'), 'e'),
    ).toBeNull();
    expect(deliveryReportRequest(null, message, status('delivered'), 'e')).toBeNull();
    expect(deliveryReportRequest('not a url', message, status('delivered'), 'e')).toBeNull();
  });
});
