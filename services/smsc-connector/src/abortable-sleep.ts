import { setTimeout as sleep } from 'node:timers/promises';

/** Thrown to the handler when the connector stops while it waits (the event stays uncommitted). */
export class ShuttingDownError extends Error {
  override name = 'ShuttingDownError';
  constructor() {
    super('the smsc-connector is stopping');
  }
}

/** Sleeps `ms`, or throws ShuttingDownError as soon as `signal` aborts. */
export async function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) throw new ShuttingDownError();
  try {
    await sleep(ms, undefined, { signal });
  } catch {
    throw new ShuttingDownError();
  }
}
