import { ACCOUNT_STATE_EVENT, type AccountState, Topics } from '@msg/contracts';
import type { Logger } from '@msg/logger';
import { parseAccountState } from './account-state-parser.js';
import {
  type AccountEventSource,
  type AccountMessage,
  followTopic,
  type TopicFollower,
} from './topic-follower.js';

export type { AccountEventSource, AccountMessage, AccountSubscription } from './topic-follower.js';

/** Read access to accounts; what the credential verifier and bearer strategy need. */
export interface AccountLookup {
  byId(id: string): AccountState | undefined;
  /** Case-insensitive. */
  byName(name: string): AccountState | undefined;
}

/**
 * The account an operator means by `ref`: its id, or its name in any case (as `pnpm admin`
 * takes it). Undefined when this directory has neither, e.g. a typo, or an account created a
 * moment ago whose state has not arrived yet.
 */
export function findAccount(lookup: AccountLookup, ref: string): AccountState | undefined {
  return lookup.byId(ref) ?? lookup.byName(ref);
}

/** Follows accounts.v1 (`start`, `caughtUp`, readiness 'account-directory', `close`). */
export interface AccountDirectory extends AccountLookup, TopicFollower {
  readonly size: number;
}

export interface AccountDirectoryOptions {
  bus: AccountEventSource;
  logger: Logger;
  /**
   * Prefix of the consumer group. A random suffix is always appended: every replica must read
   * every partition of accounts.v1, which a shared group would split between them.
   */
  groupId: string;
}

function nameKey(name: string): string {
  return name.toLowerCase();
}

/** An in-memory view of accounts.v1 (compacted): the latest state of every account. */
export function createAccountDirectory({
  bus,
  logger,
  groupId,
}: AccountDirectoryOptions): AccountDirectory {
  const accounts = new Map<string, AccountState>();
  const idsByName = new Map<string, string>();

  function forgetName(account: AccountState): void {
    const key = nameKey(account.name);
    // Another account may have taken the name meanwhile; only remove our own entry.
    if (idsByName.get(key) === account.id) idsByName.delete(key);
  }

  function remove(id: string): void {
    const existing = accounts.get(id);
    if (!existing) return;
    forgetName(existing);
    accounts.delete(id);
  }

  function apply(next: AccountState): void {
    const existing = accounts.get(next.id);
    // Redelivery and reordering across a rebalance are normal; an older (or the same) version
    // must never overwrite a newer one, e.g. resurrect a rotated password.
    if (existing && existing.version >= next.version) return;
    if (existing) forgetName(existing);
    const key = nameKey(next.name);
    const holder = idsByName.get(key);
    if (holder && holder !== next.id) {
      logger.warn('account name collision', { accountId: next.id, otherAccountId: holder });
    }
    accounts.set(next.id, next);
    idsByName.set(key, next.id);
  }

  function handle(msg: AccountMessage): void {
    if (msg.value === null) {
      if (msg.key) remove(msg.key);
      return;
    }
    if (msg.value.type !== ACCOUNT_STATE_EVENT) return;
    const account = parseAccountState(msg.value.payload);
    if (!account) {
      // Retrying cannot fix a malformed payload; skip it rather than stall the directory.
      logger.warn('account event ignored: malformed payload', { eventId: msg.value.id });
      return;
    }
    apply(account);
  }

  const follower = followTopic({
    bus,
    logger,
    topic: Topics.accounts,
    groupId,
    name: 'account-directory',
    handle,
    summary: () => ({ accounts: accounts.size }),
  });

  return {
    ...follower,
    byId: (id) => accounts.get(id),
    byName(name) {
      const id = idsByName.get(nameKey(name));
      return id === undefined ? undefined : accounts.get(id);
    },
    get size() {
      return accounts.size;
    },
  };
}
