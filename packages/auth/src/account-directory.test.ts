import { PassThrough } from 'node:stream';
import { makeEvent, Topics } from '@msg/contracts';
import { createLogger } from '@msg/logger';
import { describe, expect, it } from 'vitest';
import { makeAccount } from '../test/support/accounts.js';
import { createFakeAccountBus } from '../test/support/fake-bus.js';
import { createAccountDirectory, findAccount } from './account-directory.js';

function captureLogger() {
  const stream = new PassThrough();
  const lines: Array<Record<string, unknown>> = [];
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
  });
  return { logger: createLogger({ service: 'auth-test', level: 'debug', stream }), lines };
}

function setup(options: { holdReplay?: boolean } = {}) {
  const fake = createFakeAccountBus(options);
  const log = captureLogger();
  const directory = createAccountDirectory({
    bus: fake.bus,
    logger: log.logger,
    groupId: 'sms.accounts',
  });
  return { ...fake, ...log, directory };
}

describe('createAccountDirectory', () => {
  it('when started, then it reads accounts.v1 from the beginning in a group of its own', async () => {
    const first = setup();
    const second = createAccountDirectory({
      bus: first.bus,
      logger: first.logger,
      groupId: 'sms.accounts',
    });

    await first.directory.start();
    await second.start();

    const [a, b] = first.subscriptions;
    expect(a).toMatchObject({ topics: [Topics.accounts], fromBeginning: true });
    expect(a?.groupId.startsWith('sms.accounts.')).toBe(true);
    expect(a?.groupId).not.toBe(b?.groupId);
  });

  it('when started, then it first makes sure accounts.v1 exists, and reports readiness once caught up', async () => {
    const { directory, ensured } = setup();
    expect(directory.readiness.isReady()).toBe(false);
    await directory.start();
    expect(ensured).toContain(Topics.accounts);
    await directory.caughtUp();
    expect(directory.readiness).toMatchObject({ name: 'account-directory' });
    expect(directory.readiness.isReady()).toBe(true);
  });

  it('when the existing accounts have not all been read, then it is not ready; after catch-up it is', async () => {
    const { directory, publishAccount, releaseReplay } = setup({ holdReplay: true });
    const account = makeAccount();
    await publishAccount(account);

    await directory.start();
    expect(directory.isReady()).toBe(false);
    expect(directory.byId(account.id)).toBeUndefined();

    releaseReplay();
    await directory.caughtUp();

    expect(directory.isReady()).toBe(true);
    expect(directory.byId(account.id)?.name).toBe('acme');
    expect(directory.size).toBe(1);
  });

  it('when looked up by name, then case does not matter', async () => {
    const { directory, publishAccount } = setup();
    const account = makeAccount({ name: 'Acme-Corp' });
    await publishAccount(account);
    await directory.start();
    await directory.caughtUp();

    expect(directory.byName('acme-corp')?.id).toBe(account.id);
    expect(directory.byName('ACME-CORP')?.id).toBe(account.id);
    expect(directory.byName('acme')).toBeUndefined();
  });

  it('when an operator names an account by id or by name in any case, then findAccount finds it; an unknown one not', async () => {
    const { directory, publishAccount } = setup();
    const account = makeAccount({ name: 'Acme' });
    await publishAccount(account);
    await directory.start();
    await directory.caughtUp();

    expect(findAccount(directory, account.id)?.id).toBe(account.id);
    expect(findAccount(directory, 'acme')?.id).toBe(account.id);
    expect(findAccount(directory, 'ACME')?.id).toBe(account.id);
    expect(findAccount(directory, 'acme-typo')).toBeUndefined();
  });

  it('when an older or equal version arrives after a newer one, then it is ignored', async () => {
    const { directory, publishAccount } = setup();
    const account = makeAccount({ version: 5, passwordHash: 'scrypt$new' });
    await directory.start();
    await directory.caughtUp();
    await publishAccount(account);

    await publishAccount({ ...account, version: 4, passwordHash: 'scrypt$old' });
    await publishAccount({ ...account, version: 5, passwordHash: 'scrypt$replayed' });

    expect(directory.byId(account.id)?.passwordHash).toBe('scrypt$new');

    await publishAccount({ ...account, version: 6, passwordHash: 'scrypt$newer' });
    expect(directory.byId(account.id)?.passwordHash).toBe('scrypt$newer');
  });

  it('when an account is renamed, then only the new name finds it', async () => {
    const { directory, publishAccount } = setup();
    const account = makeAccount({ name: 'old-name' });
    await directory.start();
    await publishAccount(account);

    await publishAccount({ ...account, name: 'New-Name', version: 2 });

    expect(directory.byName('old-name')).toBeUndefined();
    expect(directory.byName('new-name')?.id).toBe(account.id);
  });

  it('when a name moves to another account, then the old holder renaming away does not remove it', async () => {
    const { directory, publishAccount, lines } = setup();
    const first = makeAccount({ name: 'shared' });
    const second = makeAccount({ name: 'shared' });
    await directory.start();
    await publishAccount(first);
    await publishAccount(second);

    await publishAccount({ ...first, name: 'first-renamed', version: 2 });

    expect(directory.byName('shared')?.id).toBe(second.id);
    expect(lines.some((line) => line.message === 'account name collision')).toBe(true);
  });

  it('when a payload is malformed, then it is skipped with a warning and the directory keeps going', async () => {
    const { directory, publishEnvelope, publishAccount, lines } = setup();
    await directory.start();

    await publishEnvelope('bad', makeEvent('account.state', { id: 'bad', name: 42 }));
    const good = makeAccount();
    await publishAccount(good);

    expect(directory.byId('bad')).toBeUndefined();
    expect(directory.byId(good.id)).toBeDefined();
    expect(
      lines.some((line) => line.level === 'warn' && String(line.message).includes('malformed')),
    ).toBe(true);
  });

  it('when an event of another type arrives, then it is ignored', async () => {
    const { directory, publishEnvelope } = setup();
    await directory.start();

    await publishEnvelope('x', makeEvent('account.audit', makeAccount({ id: 'x' })));

    expect(directory.size).toBe(0);
  });

  it('when a tombstone arrives, then the account disappears from both indexes', async () => {
    const { directory, publishAccount, publishTombstone } = setup();
    const account = makeAccount();
    await directory.start();
    await publishAccount(account);

    await publishTombstone(account.id);

    expect(directory.byId(account.id)).toBeUndefined();
    expect(directory.byName('acme')).toBeUndefined();
  });

  it('when closed, then it is no longer ready and stops applying updates', async () => {
    const { directory, publishAccount } = setup();
    const account = makeAccount();
    await directory.start();
    await directory.caughtUp();
    await publishAccount(account);

    await directory.close();
    await publishAccount({ ...account, version: 2, status: 'disabled' });

    expect(directory.isReady()).toBe(false);
    expect(directory.byId(account.id)?.status).toBe('active');
  });

  it('when caughtUp is awaited before start, then it rejects', async () => {
    const { directory } = setup();

    await expect(directory.caughtUp()).rejects.toThrow(/not started/);
  });
});
