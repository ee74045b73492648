import { randomUUID } from 'node:crypto';
import { ACCOUNT_STATE_EVENT, type AccountState, type EventEnvelope, Topics } from '@msg/contracts';
import type { ReadinessCheck } from '@msg/http';
import type { Logger } from '@msg/logger';
import { parseAccountState } from './account-state-parser.js';

/*
 * The slice of @msg/bus's `Bus` that the directory uses, typed structurally so this package does not
 * depend on the bus implementation (and tests can pass a tiny fake). A real `Bus` satisfies it.
 */
export interface AccountMessage {
  key: string | null;
  /** Null only for a compaction tombstone, which a bus may or may not pass through. */
  value: EventEnvelope | null;
}

export interface AccountSubscription {
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

export interface AccountEventSource {
  ensureTopics(topics: { topic: string; compacted?: boolean }[]): Promise<void>;
  subscribe(opts: {
    groupId: string;
    topics: string[];
    fromBeginning?: boolean;
    handler(msg: AccountMessage): Promise<void>;
  }): Promise<AccountSubscription>;
}

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

export interface AccountDirectory extends AccountLookup {
  /**
   * Makes sure accounts.v1 exists (a service may start before admin ever has) and subscribes;
   * resolves once subscribed, not once caught up (see `caughtUp`).
   */
  start(): Promise<void>;
  /** Resolves when every account present at subscribe time has been read. */
  caughtUp(): Promise<void>;
  /** For /readyz: false until caught up, so no request is refused for an account not yet read. */
  isReady(): boolean;
  /** The same, as a /readyz check named 'account-directory'. */
  readonly readiness: ReadinessCheck;
  readonly size: number;
  close(): Promise<void>;
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
  let subscription: AccountSubscription | undefined;
  let catchUp: Promise<void> | undefined;
  let ready = false;

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

  async function handle(msg: AccountMessage): Promise<void> {
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

  return {
    async start() {
      if (subscription) return;
      await bus.ensureTopics([{ topic: Topics.accounts, compacted: true }]);
      subscription = await bus.subscribe({
        groupId: `${groupId}.${randomUUID()}`,
        topics: [Topics.accounts],
        fromBeginning: true,
        handler: handle,
      });
      catchUp = subscription.caughtUp().then(
        () => {
          ready = true;
          logger.info('account directory caught up', { accounts: accounts.size });
        },
        (err: unknown) => {
          logger.error('account directory failed to catch up', { err });
          throw err;
        },
      );
      // Observed here so a failure is logged even if nobody awaits caughtUp().
      catchUp.catch(() => {});
    },
    caughtUp() {
      return catchUp ?? Promise.reject(new Error('account directory not started'));
    },
    isReady: () => ready,
    readiness: { name: 'account-directory', isReady: () => ready },
    byId: (id) => accounts.get(id),
    byName(name) {
      const id = idsByName.get(nameKey(name));
      return id === undefined ? undefined : accounts.get(id);
    },
    get size() {
      return accounts.size;
    },
    async close() {
      ready = false;
      const current = subscription;
      subscription = undefined;
      await current?.stop();
    },
  };
}
