import { randomUUID } from 'node:crypto';
import type { BusMessage } from '@msg/bus';
import { type CallbackRequest, callbackRequestMessage } from '@msg/contracts';
import type { components } from '@msg/contracts/sms';

export type StatusCallbackBody = components['schemas']['StatusCallback'];

/**
 * The callbacks.v1 message asking the notifier to POST a status change to `url`. Keyed by the
 * URL's origin so one receiver's callbacks are delivered in order by one consumer.
 */
export function statusCallback(
  url: string,
  accountId: string,
  body: StatusCallbackBody,
  traceId?: string,
): BusMessage {
  const request: CallbackRequest = {
    callbackId: randomUUID(),
    accountId,
    url,
    method: 'POST',
    body,
    origin: { service: 'sms', kind: 'status' },
  };
  return callbackRequestMessage(request, traceId);
}
