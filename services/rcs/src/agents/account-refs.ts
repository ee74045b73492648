import { type AccountLookup, findAccount } from '@msg/auth';
import { NotFoundError, ValidationError } from '@msg/http';
import type { AgentInput } from './agent-store.js';

/**
 * Operators name accounts as `pnpm admin` takes them: by id or by name. Every account an
 * operator names is stored by its id, because sends are matched by id: a name stored as given
 * would leave the account refused (403) without a word.
 */
function unknown(ref: string): string {
  return `no account "${ref}" is known here; give an account id or name (an account created a moment ago may take a few seconds to arrive)`;
}

/** The path parameters of the operator's operations: an account by id or name, an agent by id. */
export type AccountParams = { account: string };
export type AgentParams = { agent_id: string };
export type AgentAccountParams = AgentParams & AccountParams;

/** The ids of the accounts `refs` name; a 400 naming every entry that names none. */
export function accountIdsOf(lookup: AccountLookup, refs: readonly string[], loc: string[]) {
  const ids: string[] = [];
  const errors = refs.flatMap((ref, index) => {
    const account = findAccount(lookup, ref);
    if (account) ids.push(account.id);
    return account
      ? []
      : [{ loc: [...loc, String(index)], msg: unknown(ref), type: 'unknown_account' }];
  });
  if (errors.length > 0) throw ValidationError.of(errors);
  return [...new Set(ids)];
}

/** The 404 of an account reference that names no account. */
export function unknownAccount(ref: string): NotFoundError {
  return new NotFoundError(unknown(ref));
}

/** The id of the account `ref` names; 404 when it names none. */
export function accountIdOf(lookup: AccountLookup, ref: string): string {
  const account = findAccount(lookup, ref);
  if (!account) throw unknownAccount(ref);
  return account.id;
}

/** The input with its `accounts` (ids or names) made ids; a 400 names any that names none. */
export function withAccountIds<T extends AgentInput>(accounts: AccountLookup, input: T): T {
  return input.accounts
    ? { ...input, accounts: accountIdsOf(accounts, input.accounts, ['body', 'accounts']) }
    : input;
}
