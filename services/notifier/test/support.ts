import { randomUUID } from 'node:crypto';
import type { Bus, BusMessage, ConsumedMessage } from '@msg/bus';
import {
  BATCH_EVENT,
  type BatchDomainEvent,
  CALLBACK_REQUEST_EVENT,
  type CallbackDeadLetter,
  type CallbackRequest,
  exampleEvents,
  makeEvent,
  Topics,
} from '@msg/contracts';
import { vi } from 'vitest';

/** Polls until `check` stops throwing (an expect inside it), or rethrows its last error. */
export async function eventually(check: () => unknown, timeoutMs = 15_000): Promise<void> {
  await vi.waitFor(check, { timeout: timeoutMs, interval: 25 });
}

export function callbackRequest(
  url: string,
  overrides: Partial<CallbackRequest> = {},
): CallbackRequest {
  return {
    callbackId: randomUUID(),
    accountId: 'acct-1',
    url,
    method: 'POST',
    origin: { service: 'sms', kind: 'status' },
    ...overrides,
  };
}

/** A callbacks.v1 message as any producing service writes it: keyed by the target's origin. */
export function callbackMessage(request: CallbackRequest): BusMessage {
  return {
    key: new URL(request.url).origin,
    value: makeEvent(CALLBACK_REQUEST_EVENT, request, { accountId: request.accountId }),
  };
}

export async function publishCallback(bus: Bus, request: CallbackRequest): Promise<void> {
  await bus.publish(Topics.callbacks, [callbackMessage(request)]);
}

/**
 * A batch.events.v1 message as the batch service writes it (keyed by batch id): the contract's
 * example batch event with `event_type` and `callback` replaced.
 */
export function batchEventMessage(
  callback: BatchDomainEvent['callback'],
  eventType: BatchDomainEvent['event']['event_type'],
): BusMessage {
  const { payload } = exampleEvents[Topics.batchEvents];
  const event: BatchDomainEvent = {
    ...payload,
    callback,
    event: { ...payload.event, event_type: eventType },
  };
  return {
    key: payload.batchId,
    value: makeEvent(BATCH_EVENT, event, { accountId: payload.accountId }),
  };
}

/** Collects callbacks.dlq.v1 from now on (its own group). */
export async function collectDeadLetters(bus: Bus, groupId: string) {
  const letters: CallbackDeadLetter[] = [];
  const subscription = await bus.subscribe({
    groupId,
    topics: [Topics.callbacksDlq],
    fromBeginning: true,
    handler: async (msg: ConsumedMessage) => {
      if (isDeadLetter(msg.value.payload)) letters.push(msg.value.payload);
    },
  });
  return {
    letters,
    of: (callbackId: string) => letters.filter((letter) => letter.callbackId === callbackId),
    stop: () => subscription.stop(),
  };
}

function isDeadLetter(payload: unknown): payload is CallbackDeadLetter {
  return (
    typeof payload === 'object' &&
    payload !== null &&
    'callbackId' in payload &&
    'lastError' in payload
  );
}
