import type { Bus } from '@msg/bus';
import { ACCOUNT_STATE_EVENT, type AccountState, makeEvent, Topics } from '@msg/contracts';

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
  if (!arrived) {
    await new Promise((r) => setTimeout(r, 50));
    return state;
  }
  const deadline = Date.now() + 5_000;
  while (!arrived(state)) {
    if (Date.now() > deadline) throw new Error(`account ${state.name} did not arrive`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return state;
}
