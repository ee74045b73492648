import type { Bus } from '@msg/bus';
import {
  ACCOUNT_STATE_EVENT,
  type AccountState,
  makeEvent,
  PROTECTED_SENDERS_EVENT,
  PROTECTED_SENDERS_KEY,
  Topics,
} from '@msg/contracts';

/**
 * Publishes the account on accounts.v1 as the admin service does, then waits until `arrived`
 * says the service under test has it (polling, up to 5 s) — or, without it, a moment.
 */
export async function publishAccount(
  bus: Bus,
  state: AccountState,
  arrived?: (state: AccountState) => boolean,
): Promise<AccountState> {
  await bus.publish(Topics.accounts, [
    { key: state.id, value: makeEvent(ACCOUNT_STATE_EVENT, state, { accountId: state.id }) },
  ]);
  await settle(arrived && (() => arrived(state)), `account ${state.name}`);
  return state;
}

let protectedVersion = 0;

/**
 * Publishes the operator's protected sender names on senders.protected.v1 as the admin service
 * does (the whole list, a version above every earlier one of this process), then waits until
 * `arrived` says the service under test has it (polling, up to 5 s) — or, without it, a moment.
 */
export async function publishProtectedSenders(
  bus: Bus,
  names: string[],
  arrived?: () => boolean,
): Promise<void> {
  protectedVersion += 1;
  const payload = { names, version: protectedVersion, updatedAt: new Date().toISOString() };
  await bus.publish(Topics.protectedSenders, [
    { key: PROTECTED_SENDERS_KEY, value: makeEvent(PROTECTED_SENDERS_EVENT, payload) },
  ]);
  await settle(arrived, 'the protected senders');
}

/** Polls `arrived` (every 10 ms, up to 5 s), or without it waits a moment. */
async function settle(arrived: (() => boolean) | undefined, what: string): Promise<void> {
  if (!arrived) {
    await new Promise((r) => setTimeout(r, 50));
    return;
  }
  const deadline = Date.now() + 5_000;
  while (!arrived()) {
    if (Date.now() > deadline) throw new Error(`${what} did not arrive`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
