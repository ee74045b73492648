import {
  ACCOUNT_STATE_EVENT,
  type AccountState,
  type EventEnvelope,
  makeEvent,
} from '@msg/contracts';
import type { AccountEventSource, AccountMessage } from '../../src/account-directory.js';

type SubscribeOptions = Parameters<AccountEventSource['subscribe']>[0];

/**
 * An in-memory accounts.v1 with the two behaviours the directory relies on: a new subscriber
 * replays everything already published, and `caughtUp()` resolves once that replay is handled.
 * `holdReplay` keeps the replay waiting until `releaseReplay()`, to observe "not yet ready".
 */
export function createFakeAccountBus({ holdReplay = false } = {}) {
  const published: AccountMessage[] = [];
  const subscriptions: SubscribeOptions[] = [];
  const deliveries: Array<{ deliver(msg: AccountMessage): Promise<void> }> = [];
  let release: () => void = () => {};
  const gate = holdReplay ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();

  const ensured: string[] = [];
  const bus: AccountEventSource = {
    async ensureTopics(topics) {
      ensured.push(...topics.map((t) => t.topic));
    },
    async subscribe(opts) {
      subscriptions.push(opts);
      let stopped = false;
      const snapshot = [...published];
      const replay = gate.then(async () => {
        for (const msg of snapshot) if (!stopped) await opts.handler(msg);
      });
      // Live messages are handled after the replay and in publish order, like one partition.
      let chain = replay;
      deliveries.push({
        deliver(msg) {
          chain = chain.then(() => (stopped ? undefined : opts.handler(msg)));
          return chain;
        },
      });
      return {
        caughtUp: () => replay,
        async stop() {
          stopped = true;
        },
      };
    },
  };

  async function publishMessage(msg: AccountMessage): Promise<void> {
    published.push(msg);
    await Promise.all(deliveries.map((d) => d.deliver(msg)));
  }

  return {
    bus,
    subscriptions,
    /** Topics the directory asked to exist. */
    ensured,
    releaseReplay: () => release(),
    publishAccount(account: AccountState): Promise<void> {
      return publishMessage({ key: account.id, value: makeEvent(ACCOUNT_STATE_EVENT, account) });
    },
    publishEnvelope(key: string, value: EventEnvelope): Promise<void> {
      return publishMessage({ key, value });
    },
    publishTombstone(key: string): Promise<void> {
      return publishMessage({ key, value: null });
    },
  };
}
