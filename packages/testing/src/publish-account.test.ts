import { createInProcessBus } from '@msg/bus';
import { type AccountState, Topics } from '@msg/contracts';
import { createLogger } from '@msg/logger';
import { describe, expect, it } from 'vitest';
import { accountState } from './account-state.js';
import { publishAccount } from './publish-account.js';

describe('accountState and publishAccount', () => {
  it('when two accounts are made, then ids and names differ and overrides win', () => {
    const a = accountState();
    const b = accountState({ permissions: ['sms'], status: 'disabled' });
    expect(a.id).not.toBe(b.id);
    expect(a.name).not.toBe(b.name);
    expect(b).toMatchObject({ permissions: ['sms'], status: 'disabled', version: 1 });
  });

  it('when published with an arrival check, then it resolves only once a consumer has it', async () => {
    const bus = createInProcessBus({ logger: createLogger({ service: 't', level: 'error' }) });
    const seen = new Map<string, AccountState>();
    await bus.ensureTopics([{ topic: Topics.accounts, compacted: true }]);
    const sub = await bus.subscribe({
      groupId: 'directory',
      topics: [Topics.accounts],
      fromBeginning: true,
      handler: async ({ value }) => {
        const state = value.payload as AccountState;
        seen.set(state.id, state);
      },
    });
    const account = accountState();
    await publishAccount(bus, account, (s) => seen.get(s.id)?.version === s.version);
    expect(seen.get(account.id)).toEqual(account);
    await sub.stop();
    await bus.close();
  });
});
