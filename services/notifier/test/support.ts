import { randomUUID } from 'node:crypto';
import type { Bus, ConsumedMessage } from '@msg/bus';
import {
  CALLBACK_REQUEST_EVENT,
  type CallbackDeadLetter,
  type CallbackRequest,
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

/** Publishes as any producing service does: keyed by the target's origin. */
export async function publishCallback(bus: Bus, request: CallbackRequest): Promise<void> {
  await bus.publish(Topics.callbacks, [
    {
      key: new URL(request.url).origin,
      value: makeEvent(CALLBACK_REQUEST_EVENT, request, { accountId: request.accountId }),
    },
  ]);
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
